//! Unit tests of config parsing: the shipped default, defaults, and located errors.

use super::*;

fn build_minimal(board_extra: &str) -> String {
    format!("[[board]]\nid = \"t1\"\nboard_port = \"/dev/null\"\n{board_extra}\n")
}

#[test]
fn shipped_default_parses_with_api_values() {
    let config = parse(DEFAULT_CONFIG).expect("deploy/goban-bridge.toml must be valid");
    assert_eq!(config.server.listen.to_string(), "127.0.0.1:8080");
    assert!(
        config.mqtt.url.is_none(),
        "default uses the embedded broker"
    );
    assert_eq!(config.mqtt.prefix, "goban");
    assert_eq!(config.boards.len(), 1);
    let board = &config.boards[0];
    assert_eq!(board.id.as_str(), "table-1");
    assert_eq!(board.komi(), 7.5);
    assert_eq!(
        board.time_control.to_string(),
        "byoyomi-cn:main=60m,reserve=5"
    );
    assert_eq!(config.journal.synchronous, Synchronous::Normal);
}

#[test]
fn the_resignation_signal_is_configured_under_referee() {
    let config = parse(&build_minimal("")).expect("valid");
    assert!(config.referee.resignation_signal.enabled);
    assert_eq!(config.referee.resignation_signal.reach, 1);
    let text = format!(
        "[referee]\nresignation_signal = {{ enabled = false }}\n{}",
        build_minimal("")
    );
    let config = parse(&text).expect("valid");
    assert!(!config.referee.resignation_signal.enabled);
    assert_eq!(
        config.referee.resignation_signal.reach, 1,
        "reach keeps its default"
    );
    let bad = format!(
        "[referee]\nresignation_signal = {{ reach = 1, corner = \"left\" }}\n{}",
        build_minimal("")
    );
    assert!(parse(&bad).is_err(), "unknown fields are refused");
}

#[test]
fn missing_sections_take_defaults() {
    let config = parse(&build_minimal("")).expect("valid");
    assert_eq!(config.referee.settle_time.as_ms(), 300);
    let board = &config.boards[0];
    assert_eq!(board.clock_port(), &board.board_port);
    assert_eq!(board.size.lines(), 19);
    assert_eq!(board.ruleset, goban_rules::Ruleset::Cn2002);
    assert_eq!(board.time_control.to_string(), "none");
}

#[test]
fn every_error_is_reported_with_line_and_field() {
    let text = "[server]\nlisten = \"nowhere\"\n\n[journal]\nsynchronous = \"sometimes\"\n\n\
                [[board]]\nid = \"Table 1\"\nboard_port = \"/dev/null\"\n\n\
                [[board]]\nid = \"t2\"\nboard_port = \"/dev/null\"\nkomi = \"lots\"\n";
    let errors = parse(text).expect_err("four problems").0;
    let located: Vec<(usize, &str)> = errors.iter().map(|i| (i.line, i.field.as_str())).collect();
    assert!(located.contains(&(2, "server.listen")), "{errors:?}");
    assert!(located.contains(&(5, "journal.synchronous")), "{errors:?}");
    assert!(located.contains(&(8, "board[1].id")), "{errors:?}");
    assert!(located.contains(&(14, "board[2].komi")), "{errors:?}");
}

#[test]
fn unknown_fields_and_bad_durations_are_named() {
    let errors = parse(&build_minimal("settle_tme = \"1s\""))
        .expect_err("typo")
        .0;
    assert_eq!(errors[0].line, 4);
    assert!(errors[0].message.contains("settle_tme"), "{errors:?}");
    let errors = parse(&build_minimal("settle_time = \"300\""))
        .expect_err("no unit")
        .0;
    assert_eq!(
        (errors[0].line, errors[0].field.as_str()),
        (4, "board[1].settle_time")
    );
    assert!(errors[0].message.contains("unit"), "{errors:?}");
}

#[test]
fn duplicate_ids_bad_handicap_and_no_boards_fail() {
    let text = format!("{}{}", build_minimal("handicap = 1"), build_minimal(""));
    let errors = parse(&text).expect_err("duplicate id").0;
    assert!(
        errors.iter().any(|i| i.message.contains("used twice")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|i| i.field == "board[1].handicap"),
        "{errors:?}"
    );
    let errors = parse("[server]\n").expect_err("no board").0;
    assert_eq!(errors[0].field, "board");
}

#[test]
fn every_bad_field_of_one_board_is_reported() {
    // A board with two bad values: both are reported, not just the first.
    let text = build_minimal("komi = \"x\"\nruleset = \"go\"");
    let errors = parse(&text).expect_err("two bad fields").0;
    let fields: Vec<&str> = errors.iter().map(|i| i.field.as_str()).collect();
    assert_eq!(fields, ["board[1].komi", "board[1].ruleset"], "{errors:?}");
}

#[test]
fn syntax_errors_have_a_line() {
    let errors = parse("[server]\nlisten = \n").expect_err("syntax").0;
    assert_eq!(errors[0].line, 2);
}

#[test]
fn env_tokens_are_added_once() {
    let mut config = parse(&build_minimal("")).expect("valid");
    config.server.arbiter_tokens.push("a".into());
    add_env_tokens(&mut config, Some(" a, b ,,c"));
    assert_eq!(config.server.arbiter_tokens, ["a", "b", "c"]);
}

#[test]
fn a_board_size_outside_the_protocol_is_refused() {
    let errors = parse(&build_minimal("size = 21")).expect_err("size 21").0;
    assert_eq!(errors[0].field, "board[1].size", "{errors:?}");
}

#[test]
fn several_bad_fields_of_one_board_are_all_reported() {
    // An "unknown field" message lists the expected keys, the ones already
    // reported and removed included; that must not end the search early.
    let text = build_minimal("komi = \"lots\"\nsize = 21\nruleset = \"chess\"\ncolour = \"blue\"");
    let errors = parse(&text).expect_err("four problems").0;
    let fields: Vec<&str> = errors.iter().map(|i| i.field.as_str()).collect();
    for field in [
        "board[1].komi",
        "board[1].size",
        "board[1].ruleset",
        "board[1].colour",
    ] {
        assert!(fields.contains(&field), "{field} missing from {errors:?}");
    }
}

fn build_board(id: &str, board_port: &str, clock_port: Option<&str>) -> String {
    let clock = clock_port.map_or(String::new(), |p| format!("clock_port = \"{p}\"\n"));
    format!("[[board]]\nid = \"{id}\"\nboard_port = \"{board_port}\"\n{clock}\n")
}

#[test]
fn two_boards_on_one_serial_port_are_refused() {
    let text = format!(
        "{}{}",
        build_board("t1", "/dev/ttyACM0", Some("/dev/ttyACM1")),
        build_board("t2", "/dev/ttyACM2", Some("/dev/ttyACM1"))
    );
    let errors = parse(&text).expect_err("the clock port is taken").0;
    assert_eq!(
        (errors[0].line, errors[0].field.as_str()),
        (6, "board[2].clock_port"),
        "{errors:?}"
    );
    assert!(
        errors[0]
            .message
            .contains("/dev/ttyACM1 is already the clock_port of board \"t1\""),
        "{errors:?}"
    );
    let text = format!(
        "{}{}",
        build_board("t1", "/dev/ttyACM0", None),
        build_board("t2", "/dev/ttyACM0", Some("/dev/ttyACM1"))
    );
    let errors = parse(&text).expect_err("the board port is taken").0;
    assert_eq!(errors[0].field, "board[2].board_port", "{errors:?}");
}

#[test]
fn a_board_and_its_own_clock_may_share_a_port() {
    let text = format!(
        "{}{}",
        build_board("t1", "/dev/ttyACM0", Some("/dev/ttyACM0")),
        build_board("t2", "/dev/ttyACM1", None)
    );
    let config = parse(&text).expect("one port per board, shared with its clock");
    assert_eq!(config.boards.len(), 2);
}

#[test]
fn a_link_and_the_port_it_names_are_one_port() {
    let dir = tempfile::tempdir().expect("temp dir");
    let device = dir.path().join("ttyACM0");
    std::fs::write(&device, b"").expect("device stand-in");
    let link = dir.path().join("usb-Maker_Board_SB-000417-if00");
    std::os::unix::fs::symlink(&device, &link).expect("link");
    let text = format!(
        "{}{}",
        build_board("t1", &link.display().to_string(), None),
        build_board("t2", &device.display().to_string(), None)
    );
    let errors = parse(&text).expect_err("the same device twice").0;
    assert_eq!(errors[0].field, "board[2].board_port", "{errors:?}");
}

#[test]
fn a_host_name_listen_address_is_resolved() {
    let text = format!(
        "[server]\nlisten = \"localhost:8080\"\n\n{}",
        build_board("t1", "/dev/null", None)
    );
    let config = parse(&text).expect("localhost resolves");
    assert!(config.server.listen.ip().is_loopback());
    let errors = parse(&format!(
        "[server]\nlisten = \"localhost\"\n\n{}",
        build_board("t1", "/dev/null", None)
    ))
    .expect_err("no port")
    .0;
    assert_eq!(
        (errors[0].line, errors[0].field.as_str()),
        (2, "server.listen")
    );
    assert!(errors[0].message.contains("no port"), "{errors:?}");
}

#[test]
fn journal_retention_defaults_to_the_end_of_the_day_and_reads_durations_and_never() {
    let config = parse(&build_minimal("")).expect("valid");
    assert_eq!(config.journal.retention, Retention::EndOfDay);
    for (text, expected) in [
        ("end-of-day", Retention::EndOfDay),
        ("never", Retention::Never),
        (
            "2h",
            Retention::After(Span(std::time::Duration::from_secs(7_200))),
        ),
        ("0s", Retention::After(Span(std::time::Duration::ZERO))),
    ] {
        let toml = format!("[journal]\nretention = \"{text}\"\n{}", build_minimal(""));
        let config = parse(&toml).expect(text);
        assert_eq!(config.journal.retention, expected, "{text}");
        assert_eq!(expected.to_string().parse::<Retention>(), Ok(expected));
    }
}

#[test]
fn a_bad_journal_retention_is_named_with_what_is_accepted() {
    for bad in ["tomorrow", "2", "", "end of day"] {
        let toml = format!("[journal]\nretention = \"{bad}\"\n{}", build_minimal(""));
        let errors = parse(&toml).expect_err(bad).0;
        assert_eq!(
            (errors[0].line, errors[0].field.as_str()),
            (2, "journal.retention"),
            "{errors:?}"
        );
        let message = &errors[0].message;
        assert!(
            message.contains("end-of-day") && message.contains("\"2h\""),
            "{bad:?}: {message}"
        );
    }
}

#[test]
fn the_late_start_limit_and_named_arbiters_are_configured() {
    use goban_referee::clock::Venue;
    let config = parse(&build_minimal("")).expect("valid");
    assert_eq!(
        config.referee.late_venue(),
        Venue::SameSite,
        "15 minutes by default"
    );
    let text = format!(
        "[server]\narbiter_tokens = [\"a\"]\n[[server.arbiters]]\nname = \"Li Wei\"\ntoken = \"b\"\n\
         [referee]\nvenue = \"separate\"\n{}",
        build_minimal("")
    );
    let config = parse(&text).expect("valid");
    assert_eq!(config.referee.late_venue(), Venue::Separate);
    assert_eq!(config.server.arbiters[0].name, "Li Wei");
    assert!(
        !format!("{:?}", config.server.arbiters).contains("\"b\""),
        "a token is never printed"
    );
    let text = format!("[referee]\nlate_limit = \"30m\"\n{}", build_minimal(""));
    let config = parse(&text).expect("valid");
    assert_eq!(config.referee.late_venue(), Venue::Limit(30 * 60_000));
    let text = format!("[referee]\nvenue = \"far\"\n{}", build_minimal(""));
    assert!(parse(&text).is_err(), "an unknown venue is refused");
}
