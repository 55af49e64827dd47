//! Shared helpers for the end-to-end tests in `tests/tests/`: locating the `goban-bridge` binary built in the same target directory.

use std::path::PathBuf;

/// The `goban-bridge` binary next to this test executable (`target/<profile>/goban-bridge`),
/// `None` when it was not built (run `cargo test --workspace`, which builds it).
pub fn bridge_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    // Test executables live in target/<profile>/deps/.
    let profile_dir = exe.parent()?.parent()?;
    let binary = profile_dir.join("goban-bridge");
    binary.exists().then_some(binary)
}

/// Skip (or fail under `CI=true`) when the binary is missing.
pub fn require_binary() -> Option<PathBuf> {
    let found = bridge_binary();
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "goban-bridge binary not built; run cargo test --workspace"
        );
        println!(
            "skipped: goban-bridge binary not built next to the tests (run cargo test --workspace)"
        );
    }
    found
}
