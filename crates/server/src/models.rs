//! Every model this server names, in one table: the default for each use,
//! with its vendor and the setting that overrides it, and the models their
//! vendors have retired or announced a date for, so `doctor` can say when a
//! configured model stops (or has stopped) being served.
//!
//! Dates are the vendors' published shutdown dates as of 2026-12-01
//! (Anthropic's model deprecations page; OpenAI's deprecations page).

use voicebox_machine::env::now_ms;

/// One model this server uses by default.
pub struct Use {
    pub vendor: &'static str,
    /// What it is used for ("resolver", "live", "live transcription").
    pub purpose: &'static str,
    /// The environment variable that overrides it, if any.
    pub setting: Option<&'static str>,
    pub default: &'static str,
}

const fn usage(
    vendor: &'static str,
    purpose: &'static str,
    setting: Option<&'static str>,
    default: &'static str,
) -> Use {
    Use {
        vendor,
        purpose,
        setting,
        default,
    }
}

pub(crate) const ANTHROPIC_RESOLVER: Use = usage(
    "anthropic",
    "resolver",
    Some("VOICEBOX_ANTHROPIC_MODEL"),
    "claude-sonnet-4-6",
);
pub(crate) const OPENAI_RESOLVER: Use = usage(
    "openai",
    "resolver",
    Some("VOICEBOX_OPENAI_MODEL"),
    "gpt-6-luna",
);
pub(crate) const GEMINI_RESOLVER: Use = usage(
    "gemini",
    "resolver",
    Some("VOICEBOX_GEMINI_MODEL"),
    "gemini-2.5-flash",
);
pub(crate) const OPENAI_LIVE: Use = usage(
    "openai",
    "live",
    Some("VOICEBOX_OPENAI_REALTIME_MODEL"),
    "gpt-realtime-2.1",
);
pub(crate) const OPENAI_LIVE_TRANSCRIPTION: Use =
    usage("openai", "live transcription", None, "gpt-live-transcribe");
pub(crate) const GEMINI_LIVE: Use = usage(
    "gemini",
    "live",
    Some("VOICEBOX_GEMINI_LIVE_MODEL"),
    "gemini-2.5-flash-native-audio-preview-12-2025",
);

/// Every use, for `doctor`.
pub(crate) const USES: [&Use; 6] = [
    &ANTHROPIC_RESOLVER,
    &OPENAI_RESOLVER,
    &GEMINI_RESOLVER,
    &OPENAI_LIVE,
    &OPENAI_LIVE_TRANSCRIPTION,
    &GEMINI_LIVE,
];

/// A model its vendor stops serving on `shutdown` (YYYY-MM-DD).
pub(crate) struct Retirement {
    pub vendor: &'static str,
    pub model: &'static str,
    pub shutdown: &'static str,
    pub replacement: &'static str,
}

const fn retired(
    vendor: &'static str,
    model: &'static str,
    shutdown: &'static str,
    replacement: &'static str,
) -> Retirement {
    Retirement {
        vendor,
        model,
        shutdown,
        replacement,
    }
}

pub(crate) const RETIREMENTS: &[Retirement] = &[
    retired(
        "anthropic", "claude-sonnet-4-5", "2026-11-30", "claude-sonnet-4-6",
    ),
    retired(
        "anthropic", "claude-sonnet-4", "2026-06-15", "claude-sonnet-4-6",
    ),
    retired(
        "anthropic", "claude-opus-4", "2026-06-15", "claude-opus-4-8",
    ),
    retired("openai", "gpt-5", "2026-12-11", "gpt-6.1-sol"),
    retired("openai", "gpt-5-mini", "2026-12-11", "gpt-6.1-terra"),
    retired("openai", "gpt-4o", "2027-01-14", "gpt-6-luna"),
    retired("openai", "gpt-4o-mini", "2027-01-14", "gpt-6-luna"),
    retired("openai", "gpt-4.1", "2027-01-14", "gpt-6-luna"),
    retired("openai", "gpt-4.1-mini", "2027-01-14", "gpt-6-luna"),
    retired("openai", "gpt-realtime", "2027-01-20", "gpt-realtime-2.1"),
    retired(
        "openai",
        "gpt-4o-realtime-preview",
        "2027-01-20",
        "gpt-realtime-2.1",
    ),
    retired(
        "openai", "gpt-4o-mini-transcribe", "2027-02-26", "gpt-live-transcribe",
    ),
    retired(
        "openai", "gpt-4o-transcribe", "2027-02-26", "gpt-live-transcribe",
    ),
    retired("openai", "whisper-1", "2027-02-26", "gpt-transcribe"),
];

impl Use {
    /// The model in use: the setting's value when set, else the default.
    pub fn model(&self) -> String {
        match self.setting {
            Some(name) => setting(name, self.default),
            None => self.default.to_string(),
        }
    }
}

/// The vendor's retirement of `model`, matching a dated snapshot of it too
/// (`gpt-4o-mini-2024-07-18` and `claude-sonnet-4-5-20250929` are their
/// models; `claude-sonnet-4-6` is not `claude-sonnet-4`).
pub(crate) fn retirement(vendor: &str, model: &str) -> Option<&'static Retirement> {
    RETIREMENTS.iter().filter(|r| r.vendor == vendor).find(|r| {
        model == r.model
            || model
                .strip_prefix(r.model)
                .and_then(|rest| rest.strip_prefix('-'))
                .is_some_and(is_date)
    })
}

/// `20250929` or `2024-07-18`: a snapshot's date.
fn is_date(text: &str) -> bool {
    let digits = text.bytes().filter(u8::is_ascii_digit).count();
    let dashes = text.bytes().filter(|&b| b == b'-').count();
    digits == 8 && (dashes == 0 || (dashes == 2 && text.len() == 10))
}

/// What `doctor` says of `model`: retired already, or retiring on a date,
/// with the replacement; `None` when its vendor has announced nothing.
pub(crate) fn warning(vendor: &str, model: &str, today: &str) -> Option<String> {
    let r = retirement(vendor, model)?;
    Some(if r.shutdown <= today {
        format!(
            "{vendor} stopped serving {model} on {}; set {} instead",
            r.shutdown, r.replacement
        )
    } else {
        format!(
            "{vendor} stops serving {model} on {}; move to {} before then",
            r.shutdown, r.replacement
        )
    })
}

/// Today's date (UTC) as YYYY-MM-DD.
pub fn today() -> String {
    voicebox_core::time::iso8601(now_ms())[..10].to_string()
}

/// An environment setting, or its default when unset or blank.
pub fn setting(env: &str, default: &str) -> String {
    std::env::var(env)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| default.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_default_is_a_model_its_vendor_retires() {
        for model in USES {
            assert!(
                retirement(model.vendor, model.default).is_none(),
                "{} {} default {} is retired",
                model.vendor,
                model.purpose,
                model.default
            );
        }
    }

    #[test]
    fn retired_models_and_their_snapshots_are_named_with_the_replacement() {
        let past = warning("anthropic", "claude-sonnet-4-5-20250929", "2026-12-01").unwrap();
        assert!(
            past.contains("stopped") && past.contains("claude-sonnet-4-6"),
            "{past}"
        );
        let coming = warning("openai", "gpt-4o-mini", "2026-12-01").unwrap();
        assert!(
            coming.contains("2027-01-14") && coming.contains("gpt-6-luna"),
            "{coming}"
        );
        // The sibling that is still served, and a longer name that is another model.
        assert!(warning("anthropic", "claude-sonnet-4-6", "2026-12-01").is_none());
        assert_eq!(
            retirement("openai", "gpt-4o-mini").unwrap().model,
            "gpt-4o-mini"
        );
        assert!(retirement("openai", "gpt-4o-minimal").is_none());
        assert_eq!(
            retirement("openai", "gpt-4o-mini-2024-07-18")
                .unwrap()
                .model,
            "gpt-4o-mini"
        );
    }
}
