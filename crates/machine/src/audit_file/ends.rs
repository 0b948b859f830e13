//! A file's end, read backwards only as far as it must.

use sha2::{Digest, Sha256};
use std::collections::VecDeque;
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use voicebox_core::audit::Entry;
use voicebox_core::audit::chain;
use voicebox_core::audit::chain::Anchor;
use voicebox_core::audit::chain::Anchoring;
use voicebox_core::audit::chain::Resume;
use voicebox_core::audit::chain::TailScan;
use voicebox_core::audit::lines::Backwards;
use voicebox_core::audit::lines::CHUNK;
use voicebox_core::audit::lines::Step;
use voicebox_core::contain::AUDIT_DIR;

/// What a file's end shows: the host's own last line, or not.
pub(super) enum Tail {
    Own(Resume),
    Foreign { why: String, own: Option<Resume> },
}

/// What the writer finds at the end of `name` (`len` bytes), read backwards
/// only as far as it must: whether the file ends in the host's own last line
/// (`anchoring`), and where the host's own part resumes.
pub(super) fn tail(file: &File, name: &str, len: u64, anchoring: &Anchoring) -> io::Result<Tail> {
    let mut lines = Backwards::new(len);
    let mut scan = TailScan::new(name);
    let announced = match anchoring {
        Anchoring::Anchored(anchor) => anchor.next.len(),
        _ => 0,
    };
    // Entries after the host's last line, until it is reached: how many, and
    // the earliest of them, as many as it announced (the latest first).
    let mut after = 0usize;
    let mut earliest: VecDeque<(u64, String, Vec<u8>)> = VecDeque::new();
    // Of them, the ones it announced, in order right after its last line.
    let mut own = 0usize;
    let mut reached = !matches!(anchoring, Anchoring::Anchored(_));
    loop {
        let line = match lines.next_line() {
            Step::Line(_, line) => line,
            Step::Skipped { start, end } => {
                scan.push_long(hash_span(file, start, end)?);
                continue;
            }
            Step::Read { start, end } => {
                let mut bytes = vec![0; (end - start) as usize];
                file.read_exact_at(&mut bytes, start)?;
                lines.feed(start, bytes);
                continue;
            }
            Step::Done => break,
        };
        let entry = std::str::from_utf8(&line)
            .ok()
            .and_then(|text| serde_json::from_str::<Entry>(text.trim_end_matches('\n')).ok());
        match (anchoring, entry) {
            (Anchoring::Unknown, Some(_)) => {
                let why =
                    format!("the host has no anchor for {AUDIT_DIR}/{name}, and it holds entries");
                return Ok(Tail::Foreign { why, own: None });
            }
            (Anchoring::Anchored(anchor), Some(entry)) if !reached => {
                let hash = chain::line_hash(&line);
                if entry.seq == anchor.seq && hash == anchor.hash {
                    reached = true;
                    own = own_announced(&mut scan, name, anchor, &earliest, after);
                } else if entry.seq > anchor.seq {
                    after += 1;
                    earliest.push_back((entry.seq, hash, line));
                    if earliest.len() > announced {
                        earliest.pop_front();
                    }
                    continue;
                } else {
                    return Ok(cut_or_replaced(name, anchor));
                }
            }
            _ => {}
        }
        // Read on to the host's last line, whatever the scan needs.
        if scan.push(&line) && reached {
            break;
        }
    }
    if let (Anchoring::Anchored(anchor), false) = (anchoring, reached) {
        // Nothing vouched for before the announced first line.
        if !anchor.none_before() {
            return Ok(cut_or_replaced(name, anchor));
        }
        own = own_announced(&mut scan, name, anchor, &earliest, after);
    }
    Ok(match anchoring {
        Anchoring::Anchored(anchor) if after > own => {
            let why = format!(
                "{} entries the host did not write follow its last line (seq {}) in {AUDIT_DIR}/{name}",
                after - own,
                anchor.seq + own as u64
            );
            Tail::Foreign {
                why,
                own: Some(scan.finish()),
            }
        }
        _ => Tail::Own(scan.finish()),
    })
}

/// How many of the entries right after the host's last line (`earliest`,
/// the latest first, of `after` in all) are the ones its anchor announced,
/// in order; those are the host's own, and are given to `scan` (the latest
/// first). Where others follow them, the scan starts over from them.
fn own_announced(
    scan: &mut TailScan,
    name: &str,
    anchor: &Anchor,
    earliest: &VecDeque<(u64, String, Vec<u8>)>,
    after: usize,
) -> usize {
    let in_order: Vec<_> = earliest.iter().rev().collect();
    let own = in_order
        .iter()
        .enumerate()
        .take_while(|(i, (seq, hash, _))| anchor.announced(*i, *seq, hash))
        .count();
    if after > own {
        *scan = TailScan::new(name);
    }
    for (_, _, line) in in_order[..own].iter().rev() {
        scan.push(line);
    }
    own
}

fn cut_or_replaced(name: &str, anchor: &Anchor) -> Tail {
    let why = format!(
        "{AUDIT_DIR}/{name} does not hold the last line the host wrote there (seq {}): it was cut, emptied or replaced",
        anchor.seq
    );
    Tail::Foreign { why, own: None }
}

/// The chain hash of bytes `start..end` of `file`, read in chunks.
fn hash_span(file: &File, start: u64, end: u64) -> io::Result<String> {
    let mut hash = Sha256::new();
    let mut at = start;
    while at < end {
        let mut chunk = vec![0; CHUNK.min(end - at) as usize];
        file.read_exact_at(&mut chunk, at)?;
        hash.update(&chunk);
        at += chunk.len() as u64;
    }
    Ok(voicebox_core::hex(&hash.finalize()))
}

/// The hash of the file's first line (read up to its newline), for the anchor.
pub(super) fn first_line_hash(file: &File, len: u64) -> io::Result<Option<String>> {
    let mut line = Vec::new();
    while (line.len() as u64) < len {
        let at = line.len() as u64;
        let mut chunk = vec![0; CHUNK.min(len - at) as usize];
        file.read_exact_at(&mut chunk, at)?;
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                line.extend_from_slice(&chunk[..=i]);
                break;
            }
            None => line.extend_from_slice(&chunk),
        }
    }
    Ok((!line.is_empty()).then(|| chain::line_hash(&line)))
}
