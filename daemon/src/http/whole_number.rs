//! Integers in request bodies as JSON Schema counts them: `4284.0` is the integer 4284
//! (JSON has one number type; schemathesis and some clients send whole floats).

use serde::de::{Deserialize, Deserializer, Error};

fn whole<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i128, D::Error> {
    let number = serde_json::Number::deserialize(deserializer)?;
    if let Some(n) = number.as_i64() {
        return Ok(i128::from(n));
    }
    if let Some(n) = number.as_u64() {
        return Ok(i128::from(n));
    }
    match number.as_f64() {
        // Below 2^63 an f64 without a fraction converts exactly.
        Some(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => Ok(f as i128),
        _ => Err(D::Error::custom(format!("{number} is not a whole number"))),
    }
}

fn fit<'de, D: Deserializer<'de>, T: TryFrom<i128>>(n: i128) -> Result<T, D::Error> {
    T::try_from(n).map_err(|_| D::Error::custom(format!("{n} is out of range")))
}

/// A `u64` that may be written `4284.0`.
pub(crate) fn u64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    fit::<D, u64>(whole(deserializer)?)
}

/// An `i64` that may be written `-226.0`.
pub(crate) fn i64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    fit::<D, i64>(whole(deserializer)?)
}

/// A `u32` that may be written `2.0`.
pub(crate) fn u32<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    fit::<D, u32>(whole(deserializer)?)
}

fn optional<'de, D: Deserializer<'de>, T: TryFrom<i128>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    let Some(n) = Option::<serde_json::Number>::deserialize(deserializer)? else {
        return Ok(None);
    };
    let n = whole(n).map_err(|e: serde_json::Error| D::Error::custom(e))?;
    fit::<D, T>(n).map(Some)
}

/// An optional `u8` that may be written `3.0`.
pub(crate) fn option_u8<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<u8>, D::Error> {
    optional(deserializer)
}

/// An optional `u32` that may be written `7.0`.
pub(crate) fn option_u32<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<u32>, D::Error> {
    optional(deserializer)
}

#[cfg(test)]
mod tests {
    #[derive(serde::Deserialize)]
    struct Body {
        #[serde(deserialize_with = "super::u64")]
        ms: u64,
        #[serde(default, deserialize_with = "super::option_u8")]
        stones: Option<u8>,
    }

    fn read(text: &str) -> Result<Body, serde_json::Error> {
        serde_json::from_str(text)
    }

    #[test]
    fn whole_floats_are_integers_and_fractions_are_not() {
        let body = read(r#"{"ms": 4284.0, "stones": 3.0}"#).expect("whole floats");
        assert_eq!((body.ms, body.stones), (4284, Some(3)));
        assert!(read(r#"{"ms": 1.5}"#).is_err());
        assert!(read(r#"{"ms": -1}"#).is_err());
        assert!(read(r#"{"ms": 1, "stones": 256}"#).is_err());
        assert_eq!(
            read(r#"{"ms": 1, "stones": null}"#).expect("null").stones,
            None
        );
        assert_eq!(read(r#"{"ms": 1}"#).expect("absent").stones, None);
    }
}
