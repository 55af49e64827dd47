//! Listing the SGF files of a corpus: shared by the integration tests and the replay bench
//! (which includes this file with `#[path]`), so both read the same games in the same order.
#![allow(unreachable_pub)]

use std::path::{Path, PathBuf};

/// Every `.sgf` file under `dirs` (recursively), sorted by path so that runs and machines
/// agree on the order. Unreadable directories are skipped.
pub fn sgf_files(dirs: &[&Path]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack: Vec<PathBuf> = dirs.iter().map(|d| d.to_path_buf()).collect();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "sgf") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
