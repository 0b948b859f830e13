//! The host's state folder: the host token and stored provider keys, each a
//! file with mode 0600, the tool shelf and the extension ledger. It is never
//! inside a project root, nor a root inside it ([`StateDir::apart_from`]).
//!
//! A secret is written to a fresh temporary file made 0600 with `O_EXCL`
//! (never an existing file, never through a link) and renamed into place. It
//! is read without following a link, and a secret others could read is
//! repaired to 0600 loudly: the host token is replaced with a new one (the
//! old one may have been read), the keys are kept and the person is told to
//! replace them at their providers.

use crate::provider::Provider;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs::{self, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};
use voicebox_core::platform::Env;
use voicebox_core::{Refusal, Rule};
use voicebox_machine::{Host, MachineEnv, OpenError, RootOptions};

const TOKEN_FILE: &str = "host-token";
/// The address (with this start's page secret) that opens the page.
const PAGE_URL_FILE: &str = "page-url";
/// The instance name of an audit reader (it never writes, so never names a file).
const READER_INSTANCE: &str = "reader";
const KEYS_FILE: &str = "keys.json";

/// The state folder.
#[derive(Clone, Debug)]
pub struct StateDir {
    path: PathBuf,
}

/// Whether a key is set, and its last four characters (never more).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub(crate) struct KeyStatus {
    pub set: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last4: Option<String>,
}

impl StateDir {
    /// `path`, or the default under the user's config folder.
    pub fn new(path: Option<PathBuf>) -> StateDir {
        let path = path.unwrap_or_else(|| {
            dirs::config_dir()
                .unwrap_or_else(|| PathBuf::from("."))
                .join("voicebox")
        });
        StateDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Refuses `root` when it and this state folder overlap. A state folder
    /// that is the root or inside it (`state-in-root`) makes the host token
    /// and the keys files an act can read; a root inside the state folder
    /// (`root-in-state`) lets acts rewrite the shelf and the extension ledger.
    /// Both are compared as real paths, so a symlinked spelling is caught;
    /// a folder that does not exist yet is compared where it would be made.
    /// Called before anything is created in either folder.
    pub(crate) fn apart_from(&self, root: &Path) -> Result<(), Refusal> {
        let (root, state) = (real_or_planned(root), real_or_planned(&self.path));
        if state.starts_with(&root) {
            Err(Refusal::new(
                Rule::StateInRoot,
                format!(
                    "the state folder {} is inside the root {} (or is it), so acts in the root could read the host token and keys; pass --state-dir (or set VOICEBOX_STATE_DIR) to a folder outside the root",
                    state.display(),
                    root.display()
                ),
            ))
        } else if root.starts_with(&state) {
            Err(Refusal::new(
                Rule::RootInState,
                format!(
                    "the root {} is inside the state folder {}, so acts could rewrite the tool shelf and the extension ledger; choose a root outside it, or pass --state-dir (or set VOICEBOX_STATE_DIR) to another folder",
                    root.display(),
                    state.display()
                ),
            ))
        } else {
            Ok(())
        }
    }

    /// The host token, created (random, mode 0600) on first use, and made
    /// anew when the old one was readable by others.
    pub fn host_token(&self) -> io::Result<String> {
        match self.read_private(TOKEN_FILE)? {
            Some(Secret {
                bytes,
                was_open: None,
            }) if !bytes.trim_ascii().is_empty() => {
                return String::from_utf8(bytes.trim_ascii().to_vec())
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e));
            }
            Some(Secret {
                was_open: Some(mode),
                ..
            }) => loudly(&format!(
                "the host token {} was readable by others (mode {mode:o}); it is replaced with a new one",
                self.path.join(TOKEN_FILE).display()
            )),
            _ => {}
        }
        let token = format!("{}{}", MachineEnv.random_id(), MachineEnv.random_id());
        self.write_private(TOKEN_FILE, token.as_bytes())?;
        Ok(token)
    }

    /// Keeps the address that opens this start's page (with its secret,
    /// mode 0600), so `voicebox url` can print it again.
    pub(crate) fn save_page_url(&self, url: &str) -> io::Result<()> {
        self.write_private(PAGE_URL_FILE, url.as_bytes())
    }

    /// The address the latest `serve` printed, if one has started.
    pub fn page_url(&self) -> io::Result<Option<String>> {
        Ok(self
            .read_private(PAGE_URL_FILE)?
            .map(|secret| String::from_utf8_lossy(secret.bytes.trim_ascii()).into_owned()))
    }

    /// The tool shelf (`<state>/shelf`), with the shipped tools installed on
    /// first use.
    pub fn shelf(&self) -> io::Result<PathBuf> {
        let dir = self.path.join("shelf");
        voicebox_machine::tools::Shelf::install_default(&dir)?;
        Ok(dir)
    }

    /// Where extension proposals and the admission ledger live.
    pub fn extensions(&self) -> PathBuf {
        self.path.join("extensions")
    }

    /// How this host opens a root: its audit anchors kept here, outside
    /// every root, so an edit to a root's log cannot also move them.
    pub(crate) fn root_options(&self) -> RootOptions {
        RootOptions {
            anchors: Some(self.path.join("audit-anchors")),
            ..RootOptions::default()
        }
    }

    /// A reader of `root`'s audit, for `voicebox audit` and `GET
    /// /api/audit/verify`: the host's anchors, no tools, and no writer, so
    /// nothing is swept, closed or appended in the log it reports on. With no
    /// root, a reader whose every read answers `root-not-declared`.
    pub(crate) fn audit_reader(&self, root: Option<&Path>) -> Result<Host, OpenError> {
        let mut reader = Host::new(READER_INSTANCE, ());
        if let Some(root) = root {
            let options = RootOptions {
                audit_at_first_append: true,
                ..self.root_options()
            };
            reader.declare_with(root, options)?;
        }
        Ok(reader)
    }

    /// The stored keys by provider.
    pub fn keys(&self) -> io::Result<BTreeMap<String, String>> {
        let Some(secret) = self.read_private(KEYS_FILE)? else {
            return Ok(BTreeMap::new());
        };
        if let Some(mode) = secret.was_open {
            loudly(&format!(
                "the provider keys {} were readable by others (mode {mode:o}); the mode is now 0600 — replace the keys at their providers if others could have read them",
                self.path.join(KEYS_FILE).display()
            ));
        }
        serde_json::from_slice(&secret.bytes)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }

    /// Applies changes: `Some(non-empty)` stores, `None` or `Some("")` removes.
    pub(crate) fn update_keys(
        &self,
        changes: &BTreeMap<Provider, Option<String>>,
    ) -> io::Result<()> {
        let mut keys = self.keys()?;
        for (provider, value) in changes {
            let name = provider.key_name();
            match value.as_deref().map(str::trim) {
                Some(v) if !v.is_empty() => keys.insert(name.to_string(), v.to_string()),
                _ => keys.remove(name),
            };
        }
        let json = serde_json::to_vec_pretty(&keys).expect("keys serialise");
        self.write_private(KEYS_FILE, &json)
    }

    /// Each provider's status, masked.
    pub(crate) fn key_status(&self) -> io::Result<BTreeMap<String, KeyStatus>> {
        let keys = self.keys()?;
        Ok(Provider::ALL
            .iter()
            .map(|p| {
                let name = p.key_name();
                (name.to_string(), mask(keys.get(name).map(String::as_str)))
            })
            .collect())
    }

    /// Writes a file readable only by its owner, through a rename so a
    /// reader never sees half of it. The temporary is a new file (`O_EXCL`,
    /// an unguessable name, mode 0600), so a stale or planted file, or a
    /// link, in its place cannot lend it another mode or another target.
    fn write_private(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        fs::create_dir_all(&self.path)?;
        let _ = fs::set_permissions(&self.path, fs::Permissions::from_mode(0o700));
        let tmp = self
            .path
            .join(format!(".{name}.{}.tmp", MachineEnv.random_id()));
        let written = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)
            .and_then(|mut file| {
                file.write_all(bytes)?;
                file.sync_all()
            })
            .and_then(|()| fs::rename(&tmp, self.path.join(name)));
        if written.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        written
    }

    /// Reads a secret without following a link; one that group or others
    /// could read is repaired to 0600 on the open file, and its old mode said.
    fn read_private(&self, name: &str) -> io::Result<Option<Secret>> {
        let path = self.path.join(name);
        let nofollow = i32::try_from(rustix::fs::OFlags::NOFOLLOW.bits()).unwrap_or(0);
        let mut file = match OpenOptions::new()
            .read(true)
            .custom_flags(nofollow)
            .open(&path)
        {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(io::Error::new(
                    e.kind(),
                    format!(
                        "{} cannot be read as a secret ({e}); it must be a regular file, not a link",
                        path.display()
                    ),
                ));
            }
        };
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{} is not a regular file; remove it", path.display()),
            ));
        }
        let mode = meta.permissions().mode() & 0o777;
        let was_open = (mode & 0o077 != 0).then_some(mode);
        if was_open.is_some() {
            file.set_permissions(fs::Permissions::from_mode(0o600))?;
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        Ok(Some(Secret { bytes, was_open }))
    }
}

/// A secret file's bytes, and its mode if others could read it.
struct Secret {
    bytes: Vec<u8>,
    was_open: Option<u32>,
}

/// A warning the person must see: on the console and in the log.
fn loudly(warning: &str) {
    tracing::warn!("{warning}");
    eprintln!("voicebox: {warning}");
}

/// `path` with every link resolved: the real path of its longest existing
/// prefix, then the rest as written (a `..` there undoes the name before it,
/// as `create_dir_all` would). A dangling link on the way is followed to
/// where it points (that is where the folder would be made). A prefix that
/// cannot be looked at (no permission) is taken as written: it cannot be
/// resolved, and the comparison stays the lexical one.
fn real_or_planned(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    // Components still to walk, last first; a followed link adds its target's.
    let mut parts: Vec<PathBuf> = absolute
        .components()
        .rev()
        .map(|c| PathBuf::from(c.as_os_str()))
        .collect();
    let mut real = PathBuf::new();
    let mut exists = true;
    // Links followed by hand, bounded as the kernel bounds them (ELOOP).
    let mut links = 0;
    while let Some(part) = parts.pop() {
        match part.components().next() {
            Some(Component::CurDir) | None => {}
            Some(Component::ParentDir) => {
                real.pop();
                exists = exists || real.exists();
            }
            Some(Component::RootDir | Component::Prefix(_)) => real.push(&part),
            Some(Component::Normal(_)) if exists => match fs::canonicalize(real.join(&part)) {
                Ok(resolved) => real = resolved,
                Err(_) => match fs::read_link(real.join(&part)) {
                    Ok(target) if links < 40 => {
                        links += 1;
                        parts.extend(
                            target
                                .components()
                                .rev()
                                .map(|c| PathBuf::from(c.as_os_str())),
                        );
                    }
                    _ => {
                        real.push(&part);
                        exists = false;
                    }
                },
            },
            Some(Component::Normal(_)) => real.push(&part),
        }
    }
    real
}

/// Whether a key is set, and its last four characters.
pub(crate) fn mask(key: Option<&str>) -> KeyStatus {
    match key {
        Some(k) if !k.is_empty() => KeyStatus {
            set: true,
            last4: Some(
                k.chars()
                    .rev()
                    .take(4)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect(),
            ),
        },
        _ => KeyStatus {
            set: false,
            last4: None,
        },
    }
}

mod settings;
pub use settings::Settings;
#[cfg(test)]
mod tests;
