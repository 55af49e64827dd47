//! The bodies of api.md: accepted forms, refused nonsense, and the commands they become.

use super::*;
use serde_json::json;

fn build<T: DeserializeOwned + Validate>(text: &str) -> Result<T, String> {
    let value: T = serde_json::from_str(text).map_err(|e| e.to_string())?;
    value.validate().map_err(|e| e.to_string())?;
    Ok(value)
}

#[test]
fn clock_bodies_of_api_md() {
    assert_eq!(
        build::<ClockBody>(r#"{"action":"pause"}"#),
        Ok(ClockBody::Pause { note: None })
    );
    assert_eq!(
        build::<ClockBody>(r#"{"action":"resume"}"#),
        Ok(ClockBody::Resume { note: None })
    );
    let adjust = r#"{"action":"adjust","color":"black","delta_ms":-60000}"#;
    assert_eq!(
        build::<ClockBody>(adjust),
        Ok(ClockBody::Adjust {
            color: Color::Black,
            delta_ms: -60000,
            note: None,
        })
    );
    let back = serde_json::to_value(ClockBody::Adjust {
        color: Color::White,
        delta_ms: 5,
        note: Some("clock fault".into()),
    })
    .unwrap();
    assert_eq!(
        back,
        json!({"action": "adjust", "color": "white", "delta_ms": 5, "note": "clock fault"})
    );
}

#[test]
fn clock_bodies_refuse_extras_and_nonsense() {
    for bad in [
        r#"{"action":"pause","color":"black"}"#,
        r#"{"action":"stop"}"#,
        r#"{"action":"adjust","color":"black"}"#,
        r#"{"action":"adjust","color":"red","delta_ms":1}"#,
        r#"{"action":"adjust","color":"black","delta_ms":0}"#,
        r#"{"action":"adjust","color":"black","delta_ms":1.5}"#,
        r#"{"action":"adjust","color":"black","delta_ms":-90000000000}"#,
        r#"{}"#,
    ] {
        assert!(build::<ClockBody>(bad).is_err(), "{bad}");
    }
}

#[test]
fn game_body_is_optional_but_strict() {
    let empty = build::<StartGameBody>("{}").unwrap();
    assert_eq!(serde_json::to_value(empty).unwrap(), json!({}));
    let full = r#"{"black":"A","white":"B","ruleset":"cn2002","komi":7.5,"handicap":0,
        "time_control":"byoyomi-cn:main=60m,reserve=5","colours_fixed":true,
        "ko_rule":"situational","event":"City Open"}"#;
    assert!(build::<StartGameBody>(full).is_ok());
    for bad in [
        r#"{"blak":"A"}"#,
        r#"{"ruleset":"aga"}"#,
        r#"{"komi":7.3}"#,
        r#"{"komi":"7.5"}"#,
        r#"{"handicap":10}"#,
        r#"{"handicap":-1}"#,
        r#"{"time_control":"sudden death"}"#,
        r#"{"time_control":"byoyomi-cn:main=60"}"#,
        r#"{"ko_rule":"superko"}"#,
        r#"{"black":"a\u0000b"}"#,
    ] {
        assert!(build::<StartGameBody>(bad).is_err(), "{bad}");
    }
}

#[test]
fn ruling_dead_stones_and_result_bodies() {
    assert!(build::<RulingBody>(r#"{"action":"dismiss","note":"hand slipped"}"#).is_ok());
    assert!(build::<RulingBody>(r#"{"action":"convert"}"#).is_ok());
    assert!(build::<RulingBody>(r#"{"action":"void"}"#).is_err());
    assert!(build::<RulingBody>(r#"{"note":"x"}"#).is_err());
    let dead = build::<DeadStonesBody>(r#"{"points":["d4","Q16"],"dead":true}"#).unwrap();
    assert_eq!(dead.normalise(19).unwrap().points, vec!["D4", "Q16"]);
    assert!(build::<DeadStonesBody>(r#"{"points":[],"dead":true}"#).is_err());
    assert!(build::<DeadStonesBody>(r#"{"points":["D4"]}"#).is_err());
    let far = build::<DeadStonesBody>(r#"{"points":["Q16"],"dead":true}"#).unwrap();
    assert!(far.normalise(9).is_err());
    assert!(build::<ResultBody>(r#"{"result":"B+R"}"#).is_ok());
    assert!(build::<ResultBody>(r#"{"result":"W+6.5"}"#).is_ok());
    assert!(build::<ResultBody>(r#"{"result":"black"}"#).is_err());
    assert!(build::<ResultBody>(r#"{"result":"B+X"}"#).is_err());
    assert!(build::<ResultBody>(r#"{"result":"W+-3"}"#).is_err());
}

#[test]
fn json_content_types() {
    assert!(is_json("application/json"));
    assert!(is_json("Application/JSON; charset=utf-8"));
    assert!(is_json("application/merge-patch+json"));
    assert!(!is_json("text/plain"));
    assert!(!is_json("application/x-www-form-urlencoded"));
}
