//! What a machine host can do beyond its folder: the Wasm [`Tools`], the
//! extension ledger (when it has a state folder) and the network.

use crate::egress::HttpEgress;
use crate::extensions::{Extensions, Registry};
use crate::tools::Tools;
use std::path::PathBuf;
use voicebox_core::platform::{Abilities, Egress};

/// The tools, extensions and egress of one machine host.
pub struct MachineAbilities {
    tools: Tools,
    extensions: Extensions,
    egress: HttpEgress,
}

impl MachineAbilities {
    /// The built-in create-asset tool, and the shelf in `shelf` if given; no
    /// extensions until [`MachineAbilities::with_extensions`]; the network
    /// public only, unless the operator opted in to loopback
    /// ([`HttpEgress::from_env`]).
    pub fn new(shelf: Option<PathBuf>) -> MachineAbilities {
        MachineAbilities {
            tools: Tools::new(shelf),
            extensions: Extensions::none(),
            egress: HttpEgress::from_env(),
        }
    }

    /// Takes extension proposals and admissions from the registry in `dir`.
    pub fn with_extensions(mut self, dir: PathBuf) -> MachineAbilities {
        self.extensions = Extensions::in_dir(dir, self.egress.reach());
        self
    }

    /// The extension registry, if this host takes extensions.
    pub fn registry(&self) -> Option<&Registry> {
        self.extensions.registry()
    }
}

impl Abilities for MachineAbilities {
    type Tools = Tools;
    type Ledger = Extensions;
    type Egress = HttpEgress;

    fn tools(&self) -> &Tools {
        &self.tools
    }

    fn ledger(&self) -> &Extensions {
        &self.extensions
    }

    fn egress(&self) -> &HttpEgress {
        &self.egress
    }
}
