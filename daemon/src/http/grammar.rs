//! The point notation of api.md checked at the door (letters and numbers, I skipped).
//!
//! Time controls and results are parsed by the referee's and the rules' own
//! parsers, so the API, the config and the runtime share one grammar.

/// Column letters in wire-protocol order: A..Z without I.
const COLUMNS: &str = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// Normalises a point like `d4` to `D4`, checking it lies on a `size`×`size` board (api.md "Points").
pub(crate) fn normalise_point(text: &str, size: u32) -> Result<String, String> {
    let upper = text.trim().to_ascii_uppercase();
    let mut chars = upper.chars();
    let column = chars.next().ok_or_else(|| "empty point".to_owned())?;
    let row_text = chars.as_str();
    let column_index = COLUMNS
        .find(column)
        .ok_or_else(|| format!("{text:?}: column must be a letter A-Z without I"))?;
    let row: u32 = row_text
        .parse()
        .map_err(|_| format!("{text:?}: expected a letter and a number, like D4"))?;
    let on_board = u32::try_from(column_index).is_ok_and(|c| c < size) && (1..=size).contains(&row);
    if !on_board || row_text.starts_with('0') {
        return Err(format!("{text:?} is not on a {size}x{size} board"));
    }
    Ok(upper)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_skip_i_and_respect_size() {
        assert_eq!(normalise_point("d4", 19).unwrap(), "D4");
        assert_eq!(normalise_point("T19", 19).unwrap(), "T19");
        assert!(normalise_point("I5", 19).is_err());
        assert!(normalise_point("T19", 13).is_err());
        assert!(normalise_point("A0", 19).is_err());
        assert!(normalise_point("A05", 19).is_err());
        assert!(normalise_point("A20", 19).is_err());
        assert!(normalise_point("pass", 19).is_err());
        assert!(normalise_point("", 19).is_err());
    }
}
