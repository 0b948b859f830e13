//! The shelf: a folder with a `manifest.json` listing tools by id, file and
//! sha256 digest. The bytes are re-hashed before every call, so a module that
//! changed on disk is refused (`digest-mismatch`) instead of run. A shelf tool
//! may import only what the host offers shelf tools (`output`, `note`) and
//! what its manifest entry declares; anything else is `import-undeclared`.
//! Each module is compiled once, under the digest its bytes hash to.

use super::runner::{Grant, LIMITS, ModuleCache, Tool};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use voicebox_core::contain;
use voicebox_core::{Refusal, Rule};

/// What the host offers any shelf tool.
const OFFERED: [Grant; 2] = [Grant::Output, Grant::Note];

/// One tool on the shelf.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShelfEntry {
    pub id: String,
    pub file: String,
    pub sha256: String,
    pub description: String,
    /// The host functions it imports (from module `env`).
    pub imports: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    tools: Vec<ShelfEntry>,
}

/// The shelf that ships with Voicebox (`tools/shelf/`), built from source.
const DEFAULT_SHELF: [(&str, &[u8]); 3] = [
    (
        "manifest.json",
        include_bytes!("../../../../tools/shelf/manifest.json"),
    ),
    ("wc.wasm", include_bytes!("../../../../tools/shelf/wc.wasm")),
    (
        "crc32.wasm",
        include_bytes!("../../../../tools/shelf/crc32.wasm"),
    ),
];

/// A shelf folder, and the modules compiled from it.
pub struct Shelf {
    dir: PathBuf,
    compiled: ModuleCache,
}

impl Shelf {
    pub fn new(dir: PathBuf) -> Shelf {
        Shelf {
            dir,
            compiled: ModuleCache::default(),
        }
    }

    /// Puts the shipped shelf in `dir` unless a manifest is there already
    /// (a shelf someone curated is never overwritten).
    pub fn install_default(dir: &Path) -> std::io::Result<()> {
        if dir.join("manifest.json").exists() {
            return Ok(());
        }
        std::fs::create_dir_all(dir)?;
        for (name, bytes) in DEFAULT_SHELF {
            std::fs::write(dir.join(name), bytes)?;
        }
        Ok(())
    }

    /// The manifest's entries (none if it cannot be read).
    pub fn entries(&self) -> Vec<ShelfEntry> {
        self.manifest().map(|m| m.tools).unwrap_or_default()
    }

    fn manifest(&self) -> Result<Manifest, Refusal> {
        let text = std::fs::read(self.dir.join("manifest.json")).map_err(|e| {
            Refusal::new(
                Rule::ToolUnavailable,
                format!("the shelf manifest cannot be read: {e}"),
            )
        })?;
        serde_json::from_slice(&text).map_err(|e| {
            Refusal::new(
                Rule::ToolUnavailable,
                format!("the shelf manifest is not valid: {e}"),
            )
        })
    }

    /// The module of tool `id`, its bytes re-hashed against the manifest,
    /// and its grants.
    pub fn load(&self, id: &str) -> Result<(Tool, Vec<Grant>), Refusal> {
        let manifest = self.manifest()?;
        let entry = manifest.tools.into_iter().find(|e| e.id == id).ok_or_else(|| {
            Refusal::new(
                Rule::ToolUnavailable,
                format!("there is no tool `{id}` on the shelf; list the extensions to see what exists"),
            )
        })?;
        if !contain::entry_name(&entry.file) || entry.file.starts_with('.') {
            return Err(Refusal::new(
                Rule::OutsideRoot,
                format!(
                    "the shelf entry names {:?}, which is not a file in the shelf folder",
                    entry.file
                ),
            ));
        }
        let path = self.dir.join(&entry.file);
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        if size > LIMITS.module_bytes as u64 {
            return Err(Refusal::new(
                Rule::OverBudget,
                format!(
                    "`{}` is {size} bytes; modules may be at most {}",
                    entry.file, LIMITS.module_bytes
                ),
            ));
        }
        let bytes = std::fs::read(&path).map_err(|e| {
            Refusal::new(
                Rule::ToolUnavailable,
                format!("`{}` cannot be read: {e}", entry.file),
            )
        })?;
        let digest: [u8; 32] = Sha256::digest(&bytes).into();
        let found = voicebox_core::hex(&digest);
        if !found.eq_ignore_ascii_case(&entry.sha256) {
            return Err(Refusal::new(
                Rule::DigestMismatch,
                format!(
                    "`{}` has sha256 {found}, but the shelf admitted {}; the module changed since it was admitted, so it does not run",
                    entry.file, entry.sha256
                ),
            ));
        }
        let granted = declared(&entry)?;
        let tool = self.compiled.get_or_compile(digest, &bytes)?;
        for (module, name) in tool.imports() {
            let declared = module == "env"
                && Grant::from_import_name(name).is_some_and(|g| granted.contains(&g));
            if !declared {
                return Err(undeclared(&entry.id, module, name));
            }
        }
        Ok((tool, granted))
    }
}

/// The grants a shelf tool declares, each one the host offers shelf tools;
/// the module must then import nothing else.
fn declared(entry: &ShelfEntry) -> Result<Vec<Grant>, Refusal> {
    entry
        .imports
        .iter()
        .map(|name| {
            Grant::from_import_name(name)
                .filter(|g| OFFERED.contains(g))
                .ok_or_else(|| undeclared(&entry.id, "env", name))
        })
        .collect()
}

fn undeclared(id: &str, module: &str, name: &str) -> Refusal {
    Refusal::new(
        Rule::ImportUndeclared,
        format!(
            "shelf tool `{id}` imports `{module}.{name}`, which the host does not offer shelf tools (only env.output and env.note, as declared); it does not run"
        ),
    )
}
