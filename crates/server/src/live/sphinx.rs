//! The one place that calls pocketsphinx: the library is loaded at run time
//! with `libloading` (building never needs it), and the decoder is used from
//! the one thread that created it.
//!
//! Debian bookworm ships pocketsphinx 0.8+5prealpha (`libpocketsphinx.so.3`,
//! whose configuration is sphinxbase's `cmd_ln_t`), so this is that API:
//! `cmd_ln_parse_r(NULL, ps_args(), argc, argv, TRUE)`, `ps_init`,
//! `ps_set_jsgf_string` + `ps_set_search`, `ps_start_utt`, `ps_process_raw`,
//! `ps_get_in_speech`, `ps_end_utt`, `ps_get_hyp`; for what was heard, how
//! sure it is (`ps_seg_iter`, `ps_seg_frames`, `ps_get_n_frames`), and the
//! full English language model beside the grammar (`ps_set_lm_file`).

use libloading::Library;
use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The Debian packages that provide what this module loads.
pub const PACKAGES: &str = "libpocketsphinx3 pocketsphinx-en-us";

/// Where Debian's `pocketsphinx-en-us` puts the US English model;
/// `VOICEBOX_SPHINX_MODEL` names another directory of the same layout.
const MODEL_DIR: &str = "/usr/share/pocketsphinx/model/en-us";
const LIBRARIES: &[&str] = &["libpocketsphinx.so.3", "libpocketsphinx.so"];
/// Names the one library to load instead (a build of one's own, or, in the
/// tests, one that is not there).
const LIBRARY_ENV: &str = "VOICEBOX_SPHINX_LIBRARY";

type Config = c_void;
type Decoder = c_void;
type Segment = c_void;

/// The entry points used, resolved once from the loaded library.
struct Api {
    ps_args: unsafe extern "C" fn() -> *const c_void,
    cmd_ln_parse_r: unsafe extern "C" fn(
        *mut Config,
        *const c_void,
        i32,
        *const *const c_char,
        i32,
    ) -> *mut Config,
    cmd_ln_free_r: unsafe extern "C" fn(*mut Config) -> c_int,
    ps_init: unsafe extern "C" fn(*mut Config) -> *mut Decoder,
    ps_free: unsafe extern "C" fn(*mut Decoder) -> c_int,
    ps_add_word: unsafe extern "C" fn(*mut Decoder, *const c_char, *const c_char, c_int) -> c_int,
    ps_set_jsgf_string: unsafe extern "C" fn(*mut Decoder, *const c_char, *const c_char) -> c_int,
    ps_set_search: unsafe extern "C" fn(*mut Decoder, *const c_char) -> c_int,
    ps_start_utt: unsafe extern "C" fn(*mut Decoder) -> c_int,
    ps_process_raw: unsafe extern "C" fn(*mut Decoder, *const i16, usize, c_int, c_int) -> c_int,
    ps_get_in_speech: unsafe extern "C" fn(*mut Decoder) -> u8,
    ps_end_utt: unsafe extern "C" fn(*mut Decoder) -> c_int,
    ps_get_hyp: unsafe extern "C" fn(*mut Decoder, *mut i32) -> *const c_char,
    ps_get_n_frames: unsafe extern "C" fn(*mut Decoder) -> c_int,
    ps_seg_iter: unsafe extern "C" fn(*mut Decoder) -> *mut Segment,
    ps_seg_next: unsafe extern "C" fn(*mut Segment) -> *mut Segment,
    ps_seg_word: unsafe extern "C" fn(*mut Segment) -> *const c_char,
    ps_seg_frames: unsafe extern "C" fn(*mut Segment, *mut c_int, *mut c_int),
    ps_set_lm_file: unsafe extern "C" fn(*mut Decoder, *const c_char, *const c_char) -> c_int,
    /// Keeps the code the pointers above point into mapped.
    _library: Library,
}

/// The model's files.
#[derive(Clone, Debug)]
pub(crate) struct Model {
    pub hmm: PathBuf,
    pub dict: PathBuf,
    /// The full English language model (free speech), when it is there.
    pub lm: Option<PathBuf>,
}

/// Why offline voice cannot run, in words naming what to install.
fn unavailable(what: &str) -> String {
    format!(
        "offline voice needs pocketsphinx: {what}; install the Debian packages {PACKAGES} (apt-get install {PACKAGES})"
    )
}

static API: OnceLock<Result<Api, String>> = OnceLock::new();

fn api() -> Result<&'static Api, String> {
    API.get_or_init(load).as_ref().map_err(Clone::clone)
}

fn load() -> Result<Api, String> {
    // SAFETY: loading runs the library's initialisers; libpocketsphinx and
    // its dependency libsphinxbase have none beyond the C runtime's.
    let named = std::env::var(LIBRARY_ENV)
        .ok()
        .filter(|name| !name.is_empty());
    let names: Vec<&str> = match &named {
        Some(name) => vec![name.as_str()],
        None => LIBRARIES.to_vec(),
    };
    let library = names
        .iter()
        .find_map(|name| unsafe { Library::new(name) }.ok())
        .ok_or_else(|| unavailable(&format!("none of {} loads", names.join(", "))))?;
    macro_rules! sym {
        ($name:ident) => {
            // SAFETY: the field's type is the C prototype of the same name in
            // pocketsphinx 0.8+5prealpha's headers (pocketsphinx.h,
            // ps_search.h, sphinxbase/cmd_ln.h); the pointer is kept only
            // alongside `_library`, so it never outlives the mapping.
            *unsafe { library.get(concat!(stringify!($name), "\0").as_bytes()) }.map_err(|e| {
                unavailable(&format!(
                    "the loaded library has no `{}` ({e}), so it is not the 5prealpha API",
                    stringify!($name)
                ))
            })?
        };
    }
    // Each field of `Api` is the symbol of its own name.
    macro_rules! api {
        ($($name:ident),* $(,)?) => {
            Api { $($name: sym!($name),)* _library: library }
        };
    }
    Ok(api! {
        ps_args, cmd_ln_parse_r, cmd_ln_free_r, ps_init, ps_free, ps_add_word,
        ps_set_jsgf_string, ps_set_search, ps_start_utt, ps_process_raw,
        ps_get_in_speech, ps_end_utt, ps_get_hyp, ps_get_n_frames, ps_seg_iter,
        ps_seg_next, ps_seg_word, ps_seg_frames, ps_set_lm_file,
    })
}

/// The model's files, when they are all there.
pub fn model() -> Result<Model, String> {
    let dir = std::env::var_os("VOICEBOX_SPHINX_MODEL")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(MODEL_DIR));
    let lm = dir.join("en-us.lm.bin");
    let model = Model {
        hmm: dir.join("en-us"),
        dict: dir.join("cmudict-en-us.dict"),
        lm: lm.is_file().then_some(lm),
    };
    for needed in [model.hmm.join("mdef"), model.dict.clone()] {
        if !needed.is_file() {
            return Err(unavailable(&format!(
                "the model file {} is missing",
                needed.display()
            )));
        }
    }
    Ok(model)
}

/// Whether offline voice can run here: the library loads and the model is
/// there. The error says which Debian packages to install.
pub fn available() -> Result<Model, String> {
    api()?;
    model()
}

/// The pronouncing dictionary's words and their phones (first reading).
pub(crate) fn dictionary(path: &Path) -> &'static HashMap<String, String> {
    static DICT: OnceLock<HashMap<String, String>> = OnceLock::new();
    DICT.get_or_init(|| {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let mut words = HashMap::new();
        for line in text.lines() {
            if let Some((word, phones)) = line.split_once(' ') {
                words
                    .entry(word.to_string())
                    .or_insert_with(|| phones.trim().to_string());
            }
        }
        words
    })
}

/// One decoder, used by one thread at a time.
pub(crate) struct Sphinx {
    api: &'static Api,
    ps: *mut Decoder,
}

// SAFETY: a decoder is only ever used by one thread at a time (a session's
// decoder thread; between sessions it rests, untouched, on the shelf), and
// pocketsphinx 5prealpha keeps no per-thread state: moving it between
// threads is what `Send` allows. It is not `Sync`.
unsafe impl Send for Sphinx {}

fn cstring(text: &str) -> Result<CString, String> {
    CString::new(text).map_err(|_| format!("`{text}` has a NUL byte"))
}

impl Sphinx {
    /// A decoder on `model`, silent on stderr.
    pub fn new(model: &Model) -> Result<Sphinx, String> {
        let api = api()?;
        let args = [
            "-hmm".to_string(),
            model.hmm.display().to_string(),
            "-dict".to_string(),
            model.dict.display().to_string(),
            "-logfn".to_string(),
            "/dev/null".to_string(),
        ];
        let args: Vec<CString> = args.iter().map(|a| cstring(a)).collect::<Result<_, _>>()?;
        let argv: Vec<*const c_char> = args.iter().map(|a| a.as_ptr()).collect();
        // SAFETY: `argv` holds `argv.len()` valid NUL-terminated strings that
        // outlive the call (cmd_ln copies them); `ps_args()` is the library's
        // static argument table.
        let config = unsafe {
            (api.cmd_ln_parse_r)(
                std::ptr::null_mut(),
                (api.ps_args)(),
                argv.len() as i32,
                argv.as_ptr(),
                1,
            )
        };
        if config.is_null() {
            return Err("pocketsphinx refused its configuration".into());
        }
        // SAFETY: `config` is a live cmd_ln_t; ps_init retains its own
        // reference, so ours is released right after either way.
        let ps = unsafe { (api.ps_init)(config) };
        // SAFETY: releases the reference cmd_ln_parse_r gave us, once.
        unsafe { (api.cmd_ln_free_r)(config) };
        if ps.is_null() {
            return Err(format!(
                "pocketsphinx could not load the model in {}",
                model.hmm.display()
            ));
        }
        Ok(Sphinx { api, ps })
    }

    /// Adds `word` with `phones` (space-separated) to the dictionary.
    pub(crate) fn add_word(&mut self, word: &str, phones: &str) -> Result<(), String> {
        let (w, p) = (cstring(word)?, cstring(phones)?);
        // SAFETY: `self.ps` is live; both strings are NUL-terminated and
        // copied by the call.
        let id = unsafe { (self.api.ps_add_word)(self.ps, w.as_ptr(), p.as_ptr(), 0) };
        if id < 0 {
            return Err(format!("pocketsphinx refused the word `{word}` ({phones})"));
        }
        Ok(())
    }

    /// Makes `jsgf` the active grammar (between utterances only).
    pub fn grammar(&mut self, jsgf: &str) -> Result<(), String> {
        let (name, text) = (cstring(GRAMMAR_SEARCH)?, cstring(jsgf)?);
        // SAFETY: `self.ps` is live and not in an utterance; the strings are
        // NUL-terminated and copied by the calls.
        let set = unsafe { (self.api.ps_set_jsgf_string)(self.ps, name.as_ptr(), text.as_ptr()) };
        // SAFETY: as above; the search named was just added.
        if set < 0 || unsafe { (self.api.ps_set_search)(self.ps, name.as_ptr()) } < 0 {
            return Err("pocketsphinx refused the grammar".into());
        }
        Ok(())
    }

    pub fn start(&mut self) -> Result<(), String> {
        // SAFETY: `self.ps` is live.
        match unsafe { (self.api.ps_start_utt)(self.ps) } {
            0.. => Ok(()),
            _ => Err("pocketsphinx could not start an utterance".into()),
        }
    }

    /// Feeds samples; returns whether the decoder hears speech now.
    pub fn feed(&mut self, samples: &[i16]) -> Result<bool, String> {
        // SAFETY: `self.ps` is live and in an utterance; `samples` is valid
        // for `samples.len()` reads during the call.
        let fed =
            unsafe { (self.api.ps_process_raw)(self.ps, samples.as_ptr(), samples.len(), 0, 0) };
        if fed < 0 {
            return Err("pocketsphinx could not decode the audio".into());
        }
        // SAFETY: `self.ps` is live.
        Ok(unsafe { (self.api.ps_get_in_speech)(self.ps) } != 0)
    }

    /// Ends the utterance: what was heard ("" for nothing) and how sure.
    pub fn end(&mut self) -> Result<Heard, String> {
        // SAFETY: `self.ps` is live.
        if unsafe { (self.api.ps_end_utt)(self.ps) } < 0 {
            return Err("pocketsphinx could not end the utterance".into());
        }
        let mut score = 0i32;
        // SAFETY: `self.ps` is live; the hypothesis string is owned by the
        // decoder and copied before any other call can free it.
        let text = unsafe {
            let hyp = (self.api.ps_get_hyp)(self.ps, &mut score);
            if hyp.is_null() {
                String::new()
            } else {
                CStr::from_ptr(hyp).to_string_lossy().into_owned()
            }
        };
        let (frames, spoken) = self.frames();
        Ok(Heard {
            confidence: Confidence {
                speech: spoken as f32 / frames.max(1) as f32,
                score: score as f32 / spoken.max(1) as f32,
            },
            text,
        })
    }

    /// The utterance's frames, and how many of them the hypothesis's words
    /// (not silence or fillers) cover.
    fn frames(&mut self) -> (i32, i32) {
        // SAFETY: `self.ps` is live and just ended an utterance; the iterator
        // is walked to its end, where `ps_seg_next` frees it and returns NULL,
        // and each word string is read before the next step.
        unsafe {
            let frames = (self.api.ps_get_n_frames)(self.ps);
            let mut spoken = 0;
            let mut segment = (self.api.ps_seg_iter)(self.ps);
            while !segment.is_null() {
                let word = (self.api.ps_seg_word)(segment);
                let (mut start, mut end) = (0, 0);
                (self.api.ps_seg_frames)(segment, &mut start, &mut end);
                let filler = word.is_null() || matches!(*word as u8, b'<' | b'[' | b'+');
                if !filler {
                    spoken += end - start + 1;
                }
                segment = (self.api.ps_seg_next)(segment);
            }
            (frames, spoken)
        }
    }

    /// Adds the full language model as the search `lm`, beside the grammar.
    pub(crate) fn language_model(&mut self, path: &Path) -> Result<(), String> {
        let (name, file) = (cstring(LM_SEARCH)?, cstring(&path.display().to_string())?);
        // SAFETY: `self.ps` is live and not in an utterance; both strings are
        // NUL-terminated and copied by the call.
        match unsafe { (self.api.ps_set_lm_file)(self.ps, name.as_ptr(), file.as_ptr()) } {
            0.. => Ok(()),
            _ => Err(format!("pocketsphinx could not load {}", path.display())),
        }
    }

    /// Decodes a whole utterance with the language model, then returns to
    /// the grammar (between utterances only).
    pub(crate) fn free_speech(&mut self, samples: &[i16]) -> Result<Heard, String> {
        self.whole(LM_SEARCH, samples)
    }

    /// Decodes a whole utterance with `jsgf` (the answers to one question),
    /// then returns to the command grammar (between utterances only).
    pub(crate) fn answer(&mut self, jsgf: &str, samples: &[i16]) -> Result<Heard, String> {
        let (name, text) = (cstring(ANSWER_SEARCH)?, cstring(jsgf)?);
        // SAFETY: `self.ps` is live and not in an utterance; the strings are
        // NUL-terminated and copied by the call.
        if unsafe { (self.api.ps_set_jsgf_string)(self.ps, name.as_ptr(), text.as_ptr()) } < 0 {
            return Err("pocketsphinx refused the answer grammar".into());
        }
        self.whole(ANSWER_SEARCH, samples)
    }

    /// Decodes a whole utterance with the search `name`, then returns to
    /// the command grammar.
    fn whole(&mut self, name: &str, samples: &[i16]) -> Result<Heard, String> {
        self.search(name)?;
        self.start()?;
        // SAFETY: `self.ps` is live and in an utterance; `samples` is valid
        // for `samples.len()` reads; `full_utt` says this is all of it.
        let fed =
            unsafe { (self.api.ps_process_raw)(self.ps, samples.as_ptr(), samples.len(), 0, 1) };
        let heard = self.end();
        self.search(GRAMMAR_SEARCH)?;
        match fed {
            0.. => heard,
            _ => Err("pocketsphinx could not decode the utterance".into()),
        }
    }

    fn search(&mut self, name: &str) -> Result<(), String> {
        let name = cstring(name)?;
        // SAFETY: `self.ps` is live and not in an utterance; the search was added.
        match unsafe { (self.api.ps_set_search)(self.ps, name.as_ptr()) } {
            0.. => Ok(()),
            _ => Err("pocketsphinx could not switch its search".into()),
        }
    }
}

/// The searches one decoder holds: the command grammar, the full model and
/// the answers to the question waiting.
const GRAMMAR_SEARCH: &str = "voicebox";
const LM_SEARCH: &str = "lm";
const ANSWER_SEARCH: &str = "answer";

/// What one utterance came to.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Heard {
    pub text: String,
    pub confidence: Confidence,
}

/// How sure the decoder is. A grammar always finds its best path, so its
/// own posterior says nothing (0 in this version); what does tell speech
/// the grammar fits from speech it was forced onto is how much of the
/// utterance its words cover, and the acoustic score per word frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Confidence {
    /// The share of the utterance's frames inside words (0..=1).
    pub speech: f32,
    /// The path score per word frame (log domain, higher is better).
    pub score: f32,
}

impl Drop for Sphinx {
    fn drop(&mut self) {
        // SAFETY: `self.ps` came from ps_init and is freed exactly once.
        unsafe { (self.api.ps_free)(self.ps) };
    }
}
