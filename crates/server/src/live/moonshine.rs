//! The Whisper-class offline recogniser: Moonshine (base, English; MIT
//! code and model). Two PyPI packages carry it: `moonshine-voice` the
//! library (`libmoonshine.so`, with the onnxruntime it links), built for
//! any x86-64 processor, and `moonshine-cpp` the base model files (its own
//! library needs AVX-512, so only its model is used). Loaded at run time
//! like pocketsphinx, so building never needs it; the library and the model
//! files are checked against the sha256 pinned here before the first use.
//!
//! Where it is looked for: `$VOICEBOX_MOONSHINE_DIR`, then
//! `~/.local/share/voicebox/moonshine` (where `./scripts/test` installs
//! both), then wherever `python3` finds the packages. With network, the
//! official source is PyPI: see [`install_step`].
//!
//! The C interface (moonshine-voice 0.1.5, header version 30000):
//! `moonshine_load_transcriber_from_files(folder, arch, options, n,
//! version) -> handle`, `moonshine_transcribe_without_streaming(handle,
//! float *audio, n, rate, flags, transcript_t **out) -> error` (the
//! transcript stays the transcriber's), `moonshine_free_transcriber`.

use libloading::Library;
use sha2::{Digest, Sha256};
use std::ffi::{CStr, CString, c_char, c_void};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The packages and versions the pins below belong to.
pub(crate) const PACKAGES: &str = "moonshine-voice==0.1.5 moonshine-cpp==0.1.4";

/// The install step, for setup and health (the library's Python
/// dependencies are not needed: the server calls its C interface).
pub(crate) fn install_step() -> String {
    format!(
        "python3 -m pip install --no-deps --target ~/.local/share/voicebox/moonshine {PACKAGES}"
    )
}

/// The files loaded, below the install folder, and their sha256.
const PINNED: &[(&str, &str)] = &[
    (
        LIBRARY,
        "673e4193d053a584bdfb5238c4abeaca1c8358ca47d5e495559e4791714257c2",
    ),
    (
        "moonshine_voice.libs/libonnxruntime-13ab8084.so.1",
        "18624ce60bd5d6e7c586d7fc1e96bf4c2774178ee000aea36e6af99fd6431cce",
    ),
    (
        "moonshine_cpp/models/base-en/encoder_model.ort",
        "9d1a19e044cbf89a207723d1adb667de89a5671a1e3e611b8ebe721b2c31219c",
    ),
    (
        "moonshine_cpp/models/base-en/decoder_model_merged.ort",
        "370e0c1f161d68dc1c2264c1a82024fb123380da3b73f47f05531d1e8d3308c3",
    ),
    (
        "moonshine_cpp/models/base-en/tokenizer.bin",
        "04670d78994d030185c3dd843c60591788fed0a56cc6750747bd326825f13ca9",
    ),
];

/// The library, below the install folder (it finds its onnxruntime
/// through its own `$ORIGIN/../moonshine_voice.libs` run path).
const LIBRARY: &str = "moonshine_voice/libmoonshine.so";

/// The model folder, below the install folder.
const MODEL: &str = "moonshine_cpp/models/base-en";

/// The header version the prototypes below are from.
const HEADER_VERSION: i32 = 30_000;

/// The model architecture `moonshine_load_transcriber_from_files` takes
/// for the (non-streaming) base model.
const BASE: u32 = 1;

/// `moonshine_option_t`.
#[repr(C)]
struct Setting {
    name: *const c_char,
    value: *const c_char,
}

/// `transcript_line_t`: only `text` is read; the rest is laid out so that
/// the array of lines is walked with the library's stride.
#[repr(C)]
struct Line {
    text: *const c_char,
    audio_data: *const f32,
    audio_data_count: usize,
    start_time: f32,
    duration: f32,
    id: u64,
    flags: [i8; 5],
    speaker_spans: *const c_void,
    speaker_span_count: u64,
    last_transcription_latency_ms: u32,
    words: *const c_void,
    word_count: u64,
}

/// `transcript_t`.
#[repr(C)]
struct Transcript {
    lines: *const Line,
    line_count: u64,
}

// The sizes moonshine-voice's own binding checks against the compiled
// library on 64-bit targets.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<Line>() == 88 && size_of::<Transcript>() == 16);

/// What the transcriber is loaded with: one speaker is assumed (no
/// speaker identification, which costs a model run per line).
const OPTIONS: &[(&CStr, &CStr)] = &[(c"identify_speakers", c"false")];

struct Api {
    load: unsafe extern "C" fn(*const c_char, u32, *const Setting, u64, i32) -> i32,
    transcribe: unsafe extern "C" fn(i32, *const f32, u64, i32, u32, *mut *const Transcript) -> i32,
    free: unsafe extern "C" fn(i32),
    /// Keeps the code the pointers above point into mapped.
    _library: Library,
}

/// One loaded model: transcribes 16 kHz mono audio.
pub struct Moonshine {
    api: Api,
    handle: i32,
}

// SAFETY: the handle is an index into the library's own transcriber table,
// and the decoder thread is the only user; moving the owner between threads
// before use is what `Send` allows.
unsafe impl Send for Moonshine {}

/// Why the Whisper-class recogniser cannot run, naming the install step.
fn unavailable(what: &str) -> String {
    format!(
        "the Whisper-class recogniser needs the PyPI packages {PACKAGES}: {what}; install them with `{}`",
        install_step()
    )
}

/// The install folder, wherever it is (looked for once per process).
pub(crate) fn package_dir() -> Result<PathBuf, String> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FOUND.get_or_init(find_package).clone()
}

fn find_package() -> Result<PathBuf, String> {
    let mut tried = Vec::new();
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(dir) = std::env::var_os("VOICEBOX_MOONSHINE_DIR") {
        candidates.push(PathBuf::from(dir));
    }
    if let Some(home) = std::env::var_os("HOME") {
        candidates.push(PathBuf::from(home).join(".local/share/voicebox/moonshine"));
    }
    candidates.extend(python_packages());
    for dir in candidates {
        if dir.join(LIBRARY).is_file() && dir.join(MODEL).is_dir() {
            return Ok(dir);
        }
        tried.push(dir.display().to_string());
    }
    Err(unavailable(&format!(
        "they are not in {}",
        tried.join(", ")
    )))
}

/// The folder `python3` would import both packages from, without importing
/// them.
fn python_packages() -> Option<PathBuf> {
    let found = std::process::Command::new("python3")
        .args([
            "-c",
            "import importlib.util as u, os; s = u.find_spec('moonshine_voice'); print(os.path.dirname(s.submodule_search_locations[0]) if s else '')",
        ])
        .output()
        .ok()?;
    let path = String::from_utf8(found.stdout).ok()?;
    let path = path.trim();
    (!path.is_empty()).then(|| PathBuf::from(path))
}

/// Whether the packages are here and the files loaded are the pinned ones
/// (checked once per process).
pub fn available() -> Result<PathBuf, String> {
    static CHECKED: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    CHECKED
        .get_or_init(|| {
            let dir = package_dir()?;
            for (file, want) in PINNED {
                let path = dir.join(file);
                let bytes = std::fs::read(&path).map_err(|e| {
                    unavailable(&format!("{} cannot be read ({e})", path.display()))
                })?;
                let got = hex(&Sha256::digest(&bytes));
                if got != *want {
                    return Err(unavailable(&format!(
                        "{} has sha256 {got}, not the pinned {want}",
                        path.display()
                    )));
                }
            }
            Ok(dir)
        })
        .clone()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Moonshine {
    /// Loads the library and the model from the checked install folder.
    pub fn load() -> Result<Moonshine, String> {
        let dir = available()?;
        let api = load_api(&dir)?;
        let model = CString::new(dir.join(MODEL).display().to_string())
            .map_err(|e| unavailable(&e.to_string()))?;
        let options: Vec<Setting> = OPTIONS
            .iter()
            .map(|(name, value)| Setting {
                name: name.as_ptr(),
                value: value.as_ptr(),
            })
            .collect();
        // SAFETY: a NUL-terminated path and `options.len()` options of
        // static NUL-terminated strings, read during the call.
        let handle = unsafe {
            (api.load)(
                model.as_ptr(),
                BASE,
                options.as_ptr(),
                options.len() as u64,
                HEADER_VERSION,
            )
        };
        if handle < 0 {
            return Err(unavailable(&format!(
                "the model did not load (error {handle})"
            )));
        }
        Ok(Moonshine { api, handle })
    }

    /// The words in `samples` (16 kHz mono PCM16), the lines the library
    /// splits speech into joined by a space; "" for none.
    pub(crate) fn transcribe(&mut self, samples: &[i16]) -> Result<String, String> {
        let audio: Vec<f32> = samples.iter().map(|&s| f32::from(s) / 32_768.0).collect();
        let mut transcript: *const Transcript = std::ptr::null();
        // SAFETY: `audio` is valid for `audio.len()` reads during the call;
        // `transcript` receives a pointer the transcriber owns until its
        // next call, read below before any other.
        let error = unsafe {
            (self.api.transcribe)(
                self.handle,
                audio.as_ptr(),
                audio.len() as u64,
                16_000,
                0,
                &mut transcript,
            )
        };
        if error != 0 {
            return Err(format!("moonshine could not transcribe (error {error})"));
        }
        // SAFETY: a non-null transcript holds `line_count` lines, each with a
        // NUL-terminated text or null, as the header declares.
        let lines = match unsafe { transcript.as_ref() } {
            Some(t) if !t.lines.is_null() => unsafe {
                std::slice::from_raw_parts(t.lines, t.line_count as usize)
            },
            _ => &[],
        };
        let words: Vec<String> = lines
            .iter()
            .filter(|line| !line.text.is_null())
            // SAFETY: checked non-null above; NUL-terminated per the header.
            .map(|line| {
                unsafe { CStr::from_ptr(line.text) }
                    .to_string_lossy()
                    .trim()
                    .to_owned()
            })
            .filter(|text| !text.is_empty())
            .collect();
        Ok(words.join(" "))
    }
}

fn load_api(dir: &Path) -> Result<Api, String> {
    let path = dir.join(LIBRARY);
    // SAFETY: the pinned library; its initialisers set up the C++ runtime's
    // and onnxruntime's own globals only.
    let library = unsafe { Library::new(&path) }
        .map_err(|e| unavailable(&format!("{} does not load ({e})", path.display())))?;
    macro_rules! sym {
        ($name:literal) => {
            // SAFETY: the field's type is the C prototype moonshine-voice
            // 0.1.5 declares for this symbol (its moonshine_api.py argtypes);
            // the pointer lives only alongside the library it came from.
            *unsafe { library.get(concat!($name, "\0").as_bytes()) }
                .map_err(|e| unavailable(&format!("the library has no `{}` ({e})", $name)))?
        };
    }
    Ok(Api {
        load: sym!("moonshine_load_transcriber_from_files"),
        transcribe: sym!("moonshine_transcribe_without_streaming"),
        free: sym!("moonshine_free_transcriber"),
        _library: library,
    })
}

impl Drop for Moonshine {
    fn drop(&mut self) {
        // SAFETY: the handle came from the load call and is freed once.
        unsafe { (self.api.free)(self.handle) };
    }
}
