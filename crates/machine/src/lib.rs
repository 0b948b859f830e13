//! Machine adapters for the Voicebox core.
//!
//! - [`FolderStorage`]: a project root on this machine, opened once as a
//!   cap-std directory handle, so every file operation is relative to it and a
//!   `..` or an escaping link fails in the operating system, not just in a check.
//! - [`AuditWriter`]: the root's audit file for this writer: serialised appends,
//!   seq resumed from the file, and the `lost` sweep at open.
//! - [`MachineEnv`]: the system clock and OS randomness.
//! - [`Host`]: an executor over the folder storage, driven to completion.
//! - [`MachineAbilities`]: the Wasm tools, the extension ledger and the
//!   network, each the core's trait for its concern.

mod abilities;
mod audit_file;
pub mod durable;
pub mod egress;
pub mod env;
pub mod extensions;
mod folder;
mod host;
mod own;
mod repo;
pub mod settle;
pub mod tools;

pub use abilities::MachineAbilities;
pub use audit_file::AuditWriter;
pub use env::MachineEnv;
pub use folder::{FolderStorage, OpenError, RootOptions};
pub use host::Host;
