//! `voicebox mcp`: an MCP server over stdio, for MCP clients that start
//! their servers as commands (desktop apps, coding CLIs). Stdout carries
//! the protocol and nothing else; logs and notices go to stderr.

use super::args::{PlaceArgs, ResolverArgs};
use super::{apart, fatal, host_as, init_logs, made_if_missing};
use crate::host::{Acts, Channel, Words};
use crate::mcp::McpServer;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

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
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    match runtime.block_on(serve(McpServer::new(acts, words))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("voicebox mcp: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Serves one client on stdin/stdout until it closes them.
async fn serve(server: McpServer) -> Result<(), Box<dyn std::error::Error>> {
    let (input, output) = rmcp::transport::stdio();
    crate::mcp::stdio::serve(server, input, output).await
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
