//! `voicebox`: speak or type a request; it is carried out inside one declared
//! folder and nowhere else. See the README for a tour.
//!
//! The binary is [`cli`] and [`commands`]; `main.rs` only parses and
//! dispatches. The server is a library so tests can drive
//! [`serve::router`] in-process (`tower::ServiceExt::oneshot`) and start a
//! process only for what needs one (signals, kill -9, a browser).

pub mod admission;
pub mod approval;
pub mod assets;
mod channel;
pub mod cli;
pub mod commands;
pub mod host;
pub mod live;
mod llm;
pub mod mcp;
pub mod models;
pub mod provider;
pub mod serve;
pub mod state_dir;
pub mod strict;
