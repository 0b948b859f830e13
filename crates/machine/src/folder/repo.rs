//! The root's own git repository, read through [`crate::repo::Reader`]
//! with the root's handle: opened afresh for each look.

use super::FolderStorage;
use crate::repo::Reader;
use voicebox_core::contain::RelPath;
use voicebox_core::history::{Changes, FileAt, History, Moment, Repository};
use voicebox_core::rule::Refusal;

impl FolderStorage {
    fn reader(&self) -> Result<Reader, Refusal> {
        Reader::open(&self.dir, &self.path)
    }
}

impl Repository for FolderStorage {
    fn changes(&self, since: &Moment) -> Result<Changes, Refusal> {
        self.reader()?.changes(since)
    }

    fn history(&self, name: Option<&RelPath>, limit: usize) -> Result<History, Refusal> {
        self.reader()?.history(name, limit)
    }

    fn file_at(&self, name: &RelPath, at: &Moment) -> Result<FileAt, Refusal> {
        self.reader()?.file_at(name, at)
    }
}
