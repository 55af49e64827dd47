//! The install files of deploy/ agree with each other and with the binary: the .deb's assets exist, the container's config is valid, and unit, sysusers, package scripts and image name the same user, state directory and health endpoint.
//!
//! The slow checks that need a container engine (building the image, running
//! it, installing the .deb) are scripts: deploy/container/smoke.sh and
//! deploy/debian/check-deb.sh (docs/deploy.md "Checking the packages").

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative)
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(repo_path(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The value of the first `key=value` line of a systemd unit.
fn unit_value<'a>(unit: &'a str, key: &str) -> &'a str {
    unit.lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("the unit has no {key}="))
}

fn deb_metadata() -> toml::Value {
    let manifest: toml::Table =
        toml::from_str(&read("daemon/Cargo.toml")).expect("daemon/Cargo.toml");
    manifest["package"]["metadata"]["deb"].clone()
}

#[test]
fn every_asset_of_the_deb_exists() {
    let deb = deb_metadata();
    let assets = deb["assets"].as_array().expect("assets");
    for asset in assets {
        let source = asset[0].as_str().expect("asset source");
        if source.starts_with("target/") {
            continue; // the binary, built before `cargo deb --no-build`
        }
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(source);
        match source.strip_suffix("/*") {
            Some(dir) => {
                let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
                let count = std::fs::read_dir(&dir).map_or(0, |entries| entries.count());
                assert!(count > 0, "asset directory {} is empty", dir.display());
            }
            None => assert!(path.is_file(), "asset {} is missing", path.display()),
        }
    }
    let destinations: Vec<String> = assets
        .iter()
        .map(|asset| format!("/{}", asset[1].as_str().expect("destination")))
        .collect();
    for conffile in deb["conf-files"].as_array().expect("conf-files") {
        let conffile = conffile.as_str().expect("conffile");
        assert!(
            destinations.iter().any(|d| d == conffile),
            "conffile {conffile} is no asset"
        );
    }
    let units = &deb["systemd-units"];
    let unit = format!(
        "daemon/{}/{}.service",
        units["unit-scripts"].as_str().expect("unit-scripts"),
        units["unit-name"].as_str().expect("unit-name")
    );
    assert!(repo_path(&unit).is_file(), "{unit} is missing");
}

#[test]
fn the_maintainer_scripts_are_executable_shell_with_the_debhelper_hook() {
    let dir = deb_metadata()["maintainer-scripts"]
        .as_str()
        .expect("maintainer-scripts")
        .to_owned();
    for script in ["postinst", "postrm"] {
        let relative = format!("daemon/{dir}{script}");
        let text = read(&relative);
        assert!(text.starts_with("#!/bin/sh\n"), "{relative}: not /bin/sh");
        assert!(text.contains("\nset -e\n"), "{relative}: no set -e");
        assert!(
            text.contains("#DEBHELPER#"),
            "{relative}: without #DEBHELPER# the unit is never enabled"
        );
        let mode = std::fs::metadata(repo_path(&relative))
            .expect("metadata")
            .permissions()
            .mode();
        assert!(mode & 0o111 != 0, "{relative} is not executable");
    }
}

#[test]
fn unit_sysusers_and_postinst_name_the_same_user_and_state_directory() {
    let unit = read("deploy/goban-bridge.service");
    let user = unit_value(&unit, "User");
    let state = format!("/var/lib/{}", unit_value(&unit, "StateDirectory"));
    assert_eq!(unit_value(&unit, "WorkingDirectory"), state);

    let sysusers = read("deploy/goban-bridge.sysusers");
    assert!(
        sysusers
            .lines()
            .any(|l| l.starts_with(&format!("u {user} ")) && l.contains(&state)),
        "sysusers does not create {user} with home {state}"
    );
    assert!(sysusers.contains(&format!("m {user} dialout")));

    let postinst = read("deploy/debian/postinst");
    assert!(postinst.contains(&format!("-o {user} -g {user} -m 0750 {state}")));
    assert!(read("deploy/debian/postrm").contains(&format!("rmdir {state}")));
}

#[test]
fn the_image_keeps_its_journal_on_the_volume_and_checks_the_health_of_its_listener() {
    let dockerfile = read("Dockerfile");
    let config: toml::Table =
        toml::from_str(&read("deploy/container/goban-bridge.toml")).expect("container config");
    let journal = Path::new(config["journal"]["path"].as_str().expect("journal path"));
    let volume = journal.parent().expect("journal directory");
    assert!(
        dockerfile.contains(&format!("VOLUME [\"{}\"]", volume.display())),
        "the journal {} is not on the image's volume",
        journal.display()
    );
    let listen = config["server"]["listen"].as_str().expect("listen");
    let port = listen.rsplit(':').next().expect("port");
    assert!(
        listen.starts_with("0.0.0.0:"),
        "{listen}: unreachable from outside the container"
    );
    assert!(dockerfile.contains(&format!("http://127.0.0.1:{port}/api/v1/health")));
    assert!(
        dockerfile.contains("\nUSER goban\n"),
        "the image must not run as root"
    );
}

#[test]
fn the_container_config_passes_check_config() {
    // The journal's directory is the image's volume: it exists in the container, not on the
    // machine running the tests, and check-config refuses a journal directory that does not
    // exist (as `run` would). Everything else is checked as written.
    let text = std::fs::read_to_string(repo_path("deploy/container/goban-bridge.toml"))
        .expect("container config");
    assert!(
        text.contains("\"/var/lib/goban-bridge/"),
        "the journal on the volume"
    );
    let volume = tempfile::tempdir().expect("temp dir");
    let config = volume.path().join("goban-bridge.toml");
    let here = format!("\"{}/", volume.path().display());
    std::fs::write(&config, text.replace("\"/var/lib/goban-bridge/", &here)).expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_goban-bridge"))
        .arg("check-config")
        .arg(&config)
        .output()
        .expect("run goban-bridge");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
