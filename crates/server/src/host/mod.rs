//! The host layer: what every front end acts through. HTTP (`serve`), MCP
//! (stdio and HTTP), live voice, the page's channel and the CLI stand on it;
//! it imports none of them. It holds [`Acts`] (which root is active, and
//! where an act runs: the host's folder, or the page that owns the root),
//! what an act answered ([`Acted`], always a typed reply), the resolvers
//! that turn words into actions ([`resolve`]), a call by name as an action
//! ([`call`]), and the page relay's contract ([`Channel`], [`ToPage`],
//! [`Outgoing`]).

mod acted;
mod acts;
mod audit;
pub mod call;
mod conversation;
pub mod daily;
mod envelope;
mod relay;
pub mod resolve;

pub use acted::Acted;
pub use acts::{Acts, Failed};
pub use envelope::ToPage;
pub use relay::{Channel, Outgoing};
pub use resolve::{Resolver, Words};
