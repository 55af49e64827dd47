//! The command line of the real binary: generate-config prints deploy/goban-bridge.toml byte for byte; check-config explains errors with lines.

use std::process::Command;

fn bridge(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_goban-bridge"))
        .args(args)
        .output()
        .expect("run goban-bridge")
}

#[test]
fn generate_config_prints_the_deployed_file() {
    let output = bridge(&["generate-config"]);
    assert!(output.status.success());
    let deployed = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../deploy/goban-bridge.toml"
    ))
    .expect("deploy file");
    assert_eq!(
        output.stdout, deployed,
        "generate-config must print deploy/goban-bridge.toml unchanged"
    );
}

#[test]
fn check_config_accepts_the_default_and_explains_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = dir.path().join("good.toml");
    std::fs::write(&good, bridge(&["generate-config"]).stdout).expect("write");
    let output = bridge(&["check-config", good.to_str().expect("utf-8")]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let bad = dir.path().join("bad.toml");
    let text = "[server]\nlisten = \"not an address\"\n\n[[board]]\nid = \"t1\"\nboard_port = \"/dev/null\"\n\
                time_control = \"blitz:main=5m\"\n[[board]]\nid = \"t2\"\nboard_port = \"/dev/null\"\nkomi = \"x\"\n";
    std::fs::write(&bad, text).expect("write");
    let output = bridge(&["check-config", bad.to_str().expect("utf-8")]);
    assert!(!output.status.success(), "an invalid config exits non-zero");
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(errors.contains("line 2, field server.listen"), "{errors}");
    assert!(
        errors.contains("line 7, field board[1].time_control"),
        "{errors}"
    );
    assert!(errors.contains("line 11, field board[2].komi"), "{errors}");
}

#[test]
fn a_missing_config_file_is_a_clear_error() {
    let output = bridge(&["check-config", "/nonexistent/goban.toml"]);
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("cannot read /nonexistent/goban.toml")
    );
}

#[test]
fn check_config_refuses_two_boards_on_one_port_and_resolves_localhost() {
    let dir = tempfile::tempdir().expect("tempdir");
    let shared = dir.path().join("shared.toml");
    let text = "[server]\nlisten = \"localhost:8080\"\n\n\
                [[board]]\nid = \"t1\"\nboard_port = \"/dev/ttyACM0\"\nclock_port = \"/dev/ttyACM0\"\n\n\
                [[board]]\nid = \"t2\"\nboard_port = \"/dev/ttyACM0\"\nclock_port = \"/dev/ttyACM1\"\n";
    std::fs::write(&shared, text).expect("write");
    let output = bridge(&["check-config", shared.to_str().expect("utf-8")]);
    assert!(
        !output.status.success(),
        "two boards on one port must be refused"
    );
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(
        errors.contains("field board[2].board_port: serial port /dev/ttyACM0 is already the board_port of board \"t1\""),
        "{errors}"
    );
    assert!(
        !errors.contains("server.listen"),
        "localhost:8080 resolves: {errors}"
    );

    let fixed = text.replace(
        "id = \"t2\"\nboard_port = \"/dev/ttyACM0\"",
        "id = \"t2\"\nboard_port = \"/dev/ttyACM2\"",
    );
    std::fs::write(&shared, fixed).expect("write");
    let output = bridge(&["check-config", shared.to_str().expect("utf-8")]);
    assert!(
        output.status.success(),
        "a board may share its port with its own clock: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
