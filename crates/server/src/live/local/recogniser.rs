//! One decoder and what it listens with: taken from the shelf or made,
//! its grammar following the root's files, its words in the dictionary.

use super::*;

impl Recogniser {
    /// Regenerates the grammar when the root's files changed.
    fn follow(&mut self, files: Vec<String>) -> Result<(), String> {
        if self.files.as_ref() == Some(&files) {
            return Ok(());
        }
        let grammar = grammar::grammar(&files);
        self.know(&grammar.words)?;
        self.sphinx.grammar(&grammar.jsgf)?;
        self.files = Some(files);
        Ok(())
    }

    /// Adds the words the dictionary lacks, spelled letter by letter.
    pub(super) fn know<'w>(
        &mut self,
        words: impl IntoIterator<Item = &'w String>,
    ) -> Result<(), String> {
        let dictionary = sphinx::dictionary(&self.model.dict);
        for word in words {
            if !dictionary.contains_key(word) && !self.added.contains(word) {
                let phones = grammar::spelled_phones(word, dictionary)
                    .ok_or_else(|| format!("`{word}` cannot be pronounced"))?;
                self.sphinx.add_word(word, &phones)?;
                self.added.insert(word.clone());
            }
        }
        Ok(())
    }
}

impl Recogniser {
    /// A decoder for `design` listening with the grammar for the root's
    /// files: one from the shelf when it holds one, else a new one.
    pub(super) fn take(
        model: Model,
        design: Design,
        folder: &impl Fn() -> Folder,
    ) -> Result<Self, String> {
        let kept = {
            let mut shelf = shelf();
            let at = shelf
                .iter()
                .position(|r| r.design == design && r.model.hmm == model.hmm);
            at.map(|at| shelf.swap_remove(at))
        };
        match kept {
            Some(mut recogniser) => {
                recogniser.refollow(files(&folder()))?;
                Ok(recogniser)
            }
            None => Recogniser::start(model, design, folder),
        }
    }

    /// Keeps the decoder for the next session, unless the shelf is full.
    pub(super) fn shelve(self) {
        let mut shelf = shelf();
        if shelf.len() < KEPT {
            shelf.push(self);
        }
    }

    /// Loads the decoder (and the Whisper-class model for that design) with
    /// the grammar for the root's files, listening.
    fn start(model: Model, design: Design, folder: &impl Fn() -> Folder) -> Result<Self, String> {
        let sphinx = Sphinx::new(&model)?;
        let whisper = match design {
            Design::Whisper => Some(Moonshine::load()?),
            _ => None,
        };
        let mut recogniser = Recogniser {
            design,
            sphinx,
            whisper,
            model,
            files: None,
            added: HashSet::new(),
        };
        if matches!(design, Design::Language | Design::Hybrid) {
            let lm = recogniser.model.lm.clone().ok_or_else(|| {
                format!("the {design:?} design needs the full English model en-us.lm.bin (Debian's pocketsphinx-en-us)")
            })?;
            recogniser.sphinx.language_model(&lm)?;
        }
        recogniser.follow(files(&folder()))?;
        recogniser.sphinx.start()?;
        Ok(recogniser)
    }

    /// Between utterances: ends the open one, follows the root's files and
    /// listens again. A grammar that cannot be made is logged and the old
    /// one kept; a decoder that cannot listen again is an error.
    pub(super) fn refollow(&mut self, files: Vec<String>) -> Result<(), String> {
        self.sphinx.end()?;
        if let Err(why) = self.follow(files) {
            tracing::warn!("the offline grammar was not updated: {why}");
        }
        self.sphinx.start()
    }

    /// Feeds samples; at the silence after speech, what the utterance said:
    /// the answer to the `question` waiting, when it is one, else what the
    /// design makes of it.
    pub(super) fn hear(
        &mut self,
        design: Design,
        samples: &[i16],
        (speaking, utterance, question): Listening<'_>,
        folder: &impl Fn() -> Folder,
    ) -> Result<Option<Value>, String> {
        if self.sphinx.feed(samples)? {
            *speaking = true;
            return Ok(None);
        }
        if !*speaking {
            return Ok(None);
        }
        *speaking = false;
        let grammar = self.sphinx.end()?;
        if let Some(asked) = question.as_ref()
            && let Some((answer, settles)) = self.answered(asked, utterance)?
        {
            if settles {
                *question = None;
            }
            utterance.clear();
            self.sphinx.start()?;
            return Ok(Some(answer));
        }
        let mut ears = Ears {
            sphinx: &mut self.sphinx,
            whisper: self.whisper.as_mut(),
        };
        let heard = ears.understand(design, grammar, utterance, &folder());
        utterance.clear();
        tracing::info!(heard = %heard, "offline voice heard");
        self.sphinx.start()?;
        Ok(Some(heard))
    }
}
