//! The built `goban-bridge` binary from outside its crate: the generated default config validates, a broken one is explained.

use std::process::Command;

#[test]
fn generated_config_passes_check_config() {
    let Some(binary) = goban_e2e::require_binary() else {
        return;
    };
    let generated = Command::new(&binary)
        .arg("generate-config")
        .output()
        .expect("run");
    assert!(generated.status.success());
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("goban-bridge.toml");
    std::fs::write(&path, &generated.stdout).expect("write");
    let checked = Command::new(&binary)
        .arg("check-config")
        .arg(&path)
        .output()
        .expect("run");
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );

    let broken = String::from_utf8_lossy(&generated.stdout).replace("size = 19", "size = 21");
    std::fs::write(&path, broken).expect("write");
    let checked = Command::new(&binary)
        .arg("check-config")
        .arg(&path)
        .output()
        .expect("run");
    assert!(!checked.status.success());
    let errors = String::from_utf8_lossy(&checked.stderr);
    assert!(
        errors.contains("field board[1].size") && errors.contains("9, 13 or 19"),
        "{errors}"
    );
}
