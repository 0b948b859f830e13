//! `voicebox url`: the address that opens the page of the latest `serve` on
//! this state folder, with its page secret (a fresh one each start).

use super::args::StateArgs;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub state: StateArgs,
}

pub fn run(args: Args) -> ExitCode {
    let state = args.state.dir();
    match state.page_url() {
        Ok(Some(url)) => {
            println!("{url}");
            ExitCode::SUCCESS
        }
        Ok(None) => {
            eprintln!(
                "voicebox url: no server has started with the state folder {}; run `voicebox serve` (it prints the address)",
                state.path().display()
            );
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("voicebox url: the page address cannot be read: {e}");
            ExitCode::from(1)
        }
    }
}
