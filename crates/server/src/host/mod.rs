//! The host layer: what every front end acts through. HTTP (`serve`), MCP
//! (stdio and HTTP), live voice, the page's channel and the CLI stand on it;
//! it imports none of them. It holds [`Acts`] (which root is active, and
//! where an act runs: the host's folder, or the page that owns the root),
//! the resolvers that turn words into actions ([`resolve`]), and the page
//! relay's contract ([`Channel`], [`ToPage`], [`Outgoing`]).

mod acts;
mod audit;
mod envelope;
mod relay;
pub mod resolve;

pub use acts::{Acted, Acts, Failed};
pub use envelope::ToPage;
pub use relay::{Channel, Outgoing};
pub use resolve::{Resolver, Words};
