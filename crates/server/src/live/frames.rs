//! What live voice sends the page: each text frame a variant of [`ToPage`],
//! tagged by `type`, so a frame's fields are checked by the compiler; model
//! speech goes as binary PCM.

use serde::Serialize;
use serde_json::Value;
use voicebox_core::Rule;

/// Why a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    PageClosed,
    UpstreamClosed,
    UpstreamError,
    SetupFailed,
}

impl Reason {
    pub fn id(self) -> &'static str {
        match self {
            Reason::PageClosed => "page-closed",
            Reason::UpstreamClosed => "upstream-closed",
            Reason::UpstreamError => "upstream-error",
            Reason::SetupFailed => "setup-failed",
        }
    }
}

/// A frame for the page.
#[derive(Debug, PartialEq)]
pub(crate) enum PageFrame {
    Json(ToPage),
    /// Model speech, PCM16 LE mono at [`super::vendor::OUTPUT_RATE`].
    Audio(Vec<u8>),
}

/// A text frame for the page.
#[derive(Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ToPage {
    /// The first frame: the rate to send at, and who listens.
    Rate {
        #[serde(rename = "inputRate")]
        input_rate: u32,
        #[serde(rename = "outputRate")]
        output_rate: u32,
        provider: &'static str,
    },
    /// The provider is set up; what it dropped before, and the notes file
    /// it was shown (if any).
    Ready {
        #[serde(rename = "droppedBeforeReady")]
        dropped_before_ready: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        notes: Option<&'static str>,
    },
    Transcript {
        who: &'static str,
        text: String,
    },
    Interrupted,
    /// The person's interrupt was carried out; what changed and stands.
    Stopped {
        stands: Vec<String>,
    },
    GoAway {
        #[serde(rename = "timeLeft")]
        time_left: String,
    },
    Reply {
        text: String,
    },
    /// A call the provider withdrew, and whether it had changed the folder.
    Cancelled {
        id: String,
        name: Option<String>,
        changed: bool,
        why: &'static str,
    },
    /// A batch of calls and what came of each.
    Tool {
        calls: Vec<Value>,
    },
    Error {
        refused: Rule,
        why: String,
    },
    End {
        reason: &'static str,
        why: String,
    },
}
