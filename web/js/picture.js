// picture.js — a picture from a file's text, always as <img src="blob:…">:
// a Blob typed as an image is only ever drawn, never run, and never becomes
// markup in the page. Which names are pictures is decided by their extension
// (display only: the core read the bytes as text).

const PICTURES = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
};

/** The MIME type `name` is shown with as a picture, or null when it is not one. */
export function pictureType(name) {
  const dot = String(name).lastIndexOf('.');
  return dot < 0 ? null : PICTURES[String(name).slice(dot + 1).toLowerCase()] ?? null;
}

/** An <img> of `text` typed as `type`, and the blob: URL to revoke when it goes. */
export function pictureOf(text, type, alt) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const img = document.createElement('img');
  img.alt = String(alt);
  img.decoding = 'async';
  img.src = url;
  return { img, url };
}
