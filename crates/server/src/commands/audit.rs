//! `voicebox audit`: the root's audit log, newest first: one page, every
//! entry (`--all`), or every file's chain checked (`--verify`).

use super::args::PlaceArgs;
use super::{place, unusable_root};
use crate::state_dir::StateDir;
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use voicebox_core::Reply;
use voicebox_core::audit::ParsedFile;
use voicebox_core::audit::chain::{Chain, Verdict};
use voicebox_core::audit::page::{DEFAULT_LIMIT, MAX_LIMIT, PageRequest};
use voicebox_core::rule::Refusal;
use voicebox_machine::Host;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub place: PlaceArgs,
    /// Stream every entry as JSON lines, newest first, page by page.
    #[arg(long, conflicts_with = "verify")]
    pub all: bool,
    /// Check every audit file's chain and the host's anchors: one line per
    /// file, `ok` or `torn` (passing), or `broken`, `missing`, `unanchored`,
    /// `unanchored-tail` or `unreadable` (each exits 1).
    #[arg(long)]
    pub verify: bool,
}

pub fn run(args: Args) -> ExitCode {
    let (root, state) = match place("audit", &args.place) {
        Ok(place) => place,
        Err(code) => return code,
    };
    if args.all || args.verify {
        return ExitCode::from(lines(root, &state, args.verify));
    }
    let page = match audit_host(root, &state)
        .and_then(|host| host.audit(&PageRequest::first(DEFAULT_LIMIT)))
    {
        Ok(view) => json!(view),
        Err(refusal) => json!(Reply::refusal(refusal)),
    };
    println!("{page}");
    ExitCode::SUCCESS
}

/// The reader of the root's audit, or the refusal that says why it cannot be.
fn audit_host(root: Option<&Path>, state: &StateDir) -> Result<Host, Refusal> {
    state.audit_reader(root).map_err(|e| unusable_root(&e))
}

/// `--all` and `--verify` print line by line; the exit code: `--verify`
/// exits 1 when any file fails (see [`Verdict::fails`]), and 2 without a
/// usable root.
fn lines(root: Option<&Path>, state: &StateDir, verify: bool) -> u8 {
    let host = match audit_host(root, state) {
        Ok(host) => host,
        Err(refusal) => {
            println!("{}", json!(Reply::refusal(refusal)));
            return 2;
        }
    };
    if verify {
        return match host.verify_audit().map(|check| check.files) {
            Ok(files) => {
                for file in &files {
                    println!("{}", verdict_line(file));
                }
                u8::from(
                    files
                        .iter()
                        .any(|f| f.verdict.as_ref().is_some_and(Verdict::fails)),
                )
            }
            Err(refusal) => {
                println!("{}", json!(Reply::refusal(refusal)));
                2
            }
        };
    }
    let mut page = PageRequest::first(MAX_LIMIT);
    loop {
        let view = match host.audit(&page) {
            Ok(view) => view,
            Err(refusal) => {
                println!("{}", json!(Reply::refusal(refusal)));
                return 2;
            }
        };
        let mut out = std::io::stdout().lock();
        for entry in &view.entries {
            // A closed pipe (`| head`) ends the stream; nothing is left to say.
            if out.write_all(entry.line().as_bytes()).is_err() {
                return 0;
            }
        }
        match view.next {
            Some(next) => {
                page = PageRequest::new(Some(&next), Some(MAX_LIMIT))
                    .expect("the host's own cursor is valid")
            }
            None => return 0,
        }
    }
}

/// One file's verdict as the person reads it.
fn verdict_line(file: &ParsedFile) -> String {
    let chain = |word: &str, c: &Chain| {
        let unchained = match c.unchained {
            0 => String::new(),
            n => format!(", {n} unchained (written before the chain)"),
        };
        let anchored = match c.anchored {
            true => "",
            false => ", no anchor (lines cut from the end would not show)",
        };
        format!(
            "{word} {}: {} entries, last seq {}{unchained}{anchored}",
            file.name, c.entries, c.last_seq
        )
    };
    match &file.verdict {
        Some(Verdict::Ok(c)) => chain("ok", c),
        Some(Verdict::Torn(c)) => {
            chain("torn", c) + "; the last line was cut by an interrupted write"
        }
        Some(Verdict::Unanchored(c)) => {
            chain("unanchored", c)
                + "; a writer this host does not know wrote it (or the host's state folder is new)"
        }
        Some(Verdict::UnanchoredTail(t)) => format!(
            "{}; {} entries from line {} follow the host's last line (seq {}): it did not write them",
            chain("unanchored-tail", &t.chain),
            t.after,
            t.line,
            t.anchored_seq
        ),
        Some(Verdict::Missing { why, .. }) => format!("missing {}: {why}", file.name),
        Some(Verdict::Unreadable { why }) => format!("unreadable {}: {why}", file.name),
        Some(Verdict::Broken(b)) => {
            let seq = b.seq.map(|s| format!(" (seq {s})")).unwrap_or_default();
            let kind = serde_json::to_value(b.kind).expect("kinds serialise");
            format!(
                "broken {}: line {}{seq}: {} — {}",
                file.name,
                b.line,
                kind.as_str().unwrap_or_default(),
                b.why
            )
        }
        None => format!("unverified {}", file.name),
    }
}
