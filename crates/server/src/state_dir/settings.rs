//! What the person chose on the page and expects to find after a restart:
//! the resolver turns use, each live provider's voice and model, and the
//! folders they worked in lately. Kept in the
//! state folder (`settings.json`, mode 0600 like every file there), never in
//! a root.

use super::{StateDir, loudly};
use crate::host::resolve::Resolver;
use crate::live::{Choice, Provider};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

const SETTINGS_FILE: &str = "settings.json";
/// How many recent folders the switcher offers.
const MAX_RECENT: usize = 8;

/// The saved settings; a field never saved is its default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// The resolver's name (`script`, `gemini`, `openai`, `claude`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolver: Option<String>,
    /// Machine folders declared lately, newest first.
    #[serde(default)]
    pub recent_folders: Vec<PathBuf>,
    /// The voice and model chosen for each remote live provider, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub live: BTreeMap<String, Choice>,
}

impl Settings {
    /// The voice and model chosen for `provider` (the defaults when none).
    pub(crate) fn live_choice(&self, provider: Provider) -> Choice {
        self.live.get(provider.name()).cloned().unwrap_or_default()
    }

    /// The saved resolver, if it names one.
    pub fn resolver(&self) -> Option<Resolver> {
        let name = self.resolver.as_deref()?;
        <Resolver as clap::ValueEnum>::from_str(name, true).ok()
    }
}

impl StateDir {
    /// The saved settings. A file that cannot be read or parsed is said
    /// loudly and read as the defaults: settings never stop a start.
    pub fn settings(&self) -> Settings {
        let read = self
            .read_private(SETTINGS_FILE)
            .and_then(|file| match file {
                None => Ok(Settings::default()),
                Some(file) => serde_json::from_slice(&file.bytes)
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e)),
            });
        read.unwrap_or_else(|e| {
            loudly(&format!(
                "the settings {} cannot be read ({e}); using the defaults until they are saved again",
                self.path.join(SETTINGS_FILE).display()
            ));
            Settings::default()
        })
    }

    /// Saves the resolver turns use.
    pub(crate) fn save_resolver(&self, resolver: Resolver) -> io::Result<()> {
        self.change_settings(|settings| settings.resolver = Some(resolver.name().into()))
    }

    /// Saves the voice and model chosen for `provider`.
    pub(crate) fn save_live_choice(&self, provider: Provider, choice: Choice) -> io::Result<()> {
        self.change_settings(|settings| {
            settings.live.insert(provider.name().into(), choice);
        })
    }

    /// Puts `folder` first in the recent folders (once, at most [`MAX_RECENT`]).
    pub(crate) fn remember_folder(&self, folder: &Path) -> io::Result<()> {
        self.change_settings(|settings| {
            settings.recent_folders.retain(|known| known != folder);
            settings.recent_folders.insert(0, folder.to_path_buf());
            settings.recent_folders.truncate(MAX_RECENT);
        })
    }

    fn change_settings(&self, change: impl FnOnce(&mut Settings)) -> io::Result<()> {
        let mut settings = self.settings();
        change(&mut settings);
        let json = serde_json::to_vec_pretty(&settings).expect("settings serialise");
        self.write_private(SETTINGS_FILE, &json)
    }
}
