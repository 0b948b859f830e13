//! `voicebox mcp`: an MCP server over stdio, for MCP clients that start
//! their servers as commands (desktop apps, coding CLIs). Stdout carries
//! the protocol and nothing else; logs and notices go to stderr.

use super::args::{PlaceArgs, ResolverArgs};
use super::{apart, fatal, host_as, init_logs, made_if_missing};
use crate::host::{Acts, Channel, Words};
use crate::mcp::McpServer;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use tokio::net::unix::pipe;

/// The writer instance of MCP acts over stdio.
pub(crate) const MCP_INSTANCE: &str = "mcp";

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub place: PlaceArgs,
    /// How the `say` tool reads a person's words.
    #[command(flatten)]
    pub resolver: ResolverArgs,
}

pub fn run(args: Args) -> ExitCode {
    let mut place = args.place;
    // A client's configuration is not read by a shell: `~/notes` arrives as
    // it is written, and means the home folder's `notes`.
    place.root.root = place.root.root.map(|root| home_expanded(&root));
    let state = place.state.dir();
    if let Err(code) = apart("mcp", &place.root, &state) {
        return code;
    }
    if let Some(dir) = place.root.root.as_deref()
        && let Err(code) = made_if_missing("mcp", dir)
    {
        return code;
    }
    init_logs();
    let (host, refusal) = host_as(MCP_INSTANCE, place.root.root.as_deref(), &state);
    if let Err(code) = fatal("mcp", refusal.as_ref()) {
        return code;
    }
    if let Some(refusal) = refusal {
        eprintln!("voicebox mcp: {refusal}");
    }
    let acts = Arc::new(Acts::new(host, Channel::from_env()));
    let words = Arc::new(Words::new(args.resolver.chosen(&state), state));
    // One client on one pipe: its messages are handled on this thread, the
    // acts on the blocking pool, so a call is not handed between workers.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    match runtime.block_on(serve(McpServer::new(acts, words))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("voicebox mcp: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Serves one client on stdin/stdout until it closes them. Pipes (how a
/// client starts a server) are read and written as the runtime's own events;
/// anything else (a terminal, a file) through tokio's stdio, which hands each
/// read and write to a thread of its own.
async fn serve(server: McpServer) -> Result<(), Box<dyn std::error::Error>> {
    match piped() {
        Some((input, output)) => crate::mcp::stdio::serve(server, input, output).await,
        None => {
            let (input, output) = rmcp::transport::stdio();
            crate::mcp::stdio::serve(server, input, output).await
        }
    }
}

/// Stdin and stdout, where both are pipes (each is made non-blocking only
/// then: a stdout left non-blocking under tokio's stdio would fail a write).
fn piped() -> Option<(pipe::Receiver, pipe::Sender)> {
    let input = pipe_end(std::io::stdin().as_fd())?;
    let output = pipe_end(std::io::stdout().as_fd())?;
    let input = pipe::Receiver::from_owned_fd(input).ok()?;
    match pipe::Sender::from_owned_fd(output) {
        Ok(output) => Some((input, output)),
        Err(_) => {
            // Both as they were, for tokio's stdio.
            let _ = input.into_blocking_fd();
            let stdout = std::io::stdout();
            if let Ok(flags) = rustix::fs::fcntl_getfl(&stdout) {
                let _ = rustix::fs::fcntl_setfl(
                    &stdout,
                    flags.difference(rustix::fs::OFlags::NONBLOCK),
                );
            }
            None
        }
    }
}

/// A handle on `fd`, where it is a pipe.
fn pipe_end(fd: BorrowedFd<'_>) -> Option<OwnedFd> {
    let file = std::fs::File::from(fd.try_clone_to_owned().ok()?);
    let fifo = file.metadata().ok()?.file_type().is_fifo();
    fifo.then(|| file.into())
}

/// `~` or `~/...` under the home folder; any other path as it is.
fn home_expanded(path: &Path) -> PathBuf {
    let home = dirs::home_dir();
    match (path.strip_prefix("~"), home) {
        (Ok(rest), Some(home)) => home.join(rest),
        _ => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leading_tilde_is_the_home_folder_and_nothing_else_is_touched() {
        let home = dirs::home_dir().unwrap();
        assert_eq!(home_expanded(Path::new("~/notes")), home.join("notes"));
        assert_eq!(home_expanded(Path::new("~")), home);
        assert_eq!(home_expanded(Path::new("/srv/~x")), Path::new("/srv/~x"));
        assert_eq!(home_expanded(Path::new("~other/x")), Path::new("~other/x"));
    }
}
