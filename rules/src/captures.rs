//! The stones one move captured, kept without an allocation when they are few.

use std::ops::Deref;

use crate::Point;

/// Stones held inline: nearly every capture in real games is smaller, and with seven the
/// inline form fits beside the `Vec` in 24 bytes (a move record stays at 32).
const INLINE: usize = 7;

#[derive(Clone)]
enum Repr {
    Inline { len: u8, points: [Point; INLINE] },
    Heap(Vec<Point>),
}

/// The stones one move captured (CN2002 art. 4), sorted. It dereferences to `[Point]`, so
/// `iter()`, `len()`, `is_empty()`, indexing and slice patterns work as on a `Vec`; up to
/// seven stones are stored inline, so recording a move allocates nothing in almost every
/// game.
#[derive(Clone)]
pub struct Captures(Repr);

impl Captures {
    /// The captured points, sorted.
    #[must_use]
    pub fn as_slice(&self) -> &[Point] {
        match &self.0 {
            Repr::Inline { len, points } => &points[..usize::from(*len)],
            Repr::Heap(v) => v,
        }
    }
}

impl Captures {
    /// No stone: what nearly every move records.
    pub(crate) const NONE: Self = Self(Repr::Inline {
        len: 0,
        points: [Point(0); INLINE],
    });
}

impl Default for Captures {
    fn default() -> Self {
        Self::NONE
    }
}

impl From<&[Point]> for Captures {
    /// Keeps the points in the given order.
    #[inline]
    fn from(points: &[Point]) -> Self {
        if points.is_empty() {
            return Self::NONE;
        }
        if points.len() > INLINE {
            return Self(Repr::Heap(points.to_vec()));
        }
        // A variable-length copy would call `memcpy`; one stone, the common capture, is
        // written alone.
        let mut inline = [Point(0); INLINE];
        match points {
            [p] => inline[0] = *p,
            _ => {
                for (slot, &p) in inline.iter_mut().zip(points) {
                    *slot = p;
                }
            }
        }
        // The length fits in u8: it is at most INLINE.
        Self(Repr::Inline {
            len: points.len() as u8,
            points: inline,
        })
    }
}

impl From<Vec<Point>> for Captures {
    fn from(points: Vec<Point>) -> Self {
        Self::from(points.as_slice())
    }
}

impl From<Captures> for Vec<Point> {
    fn from(captures: Captures) -> Self {
        match captures.0 {
            Repr::Heap(v) => v,
            Repr::Inline { .. } => captures.as_slice().to_vec(),
        }
    }
}

impl Deref for Captures {
    type Target = [Point];
    fn deref(&self) -> &[Point] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Captures {
    type Item = &'a Point;
    type IntoIter = std::slice::Iter<'a, Point>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl PartialEq for Captures {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}
impl Eq for Captures {}

impl PartialEq<Vec<Point>> for Captures {
    fn eq(&self, other: &Vec<Point>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl PartialEq<[Point]> for Captures {
    fn eq(&self, other: &[Point]) -> bool {
        self.as_slice() == other
    }
}

impl std::hash::Hash for Captures {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl std::fmt::Debug for Captures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(n: u16) -> Vec<Point> {
        (0..n).map(Point).collect()
    }

    #[test]
    fn small_and_large_captures_read_back_the_same() {
        assert_eq!(
            std::mem::size_of::<Captures>(),
            std::mem::size_of::<Vec<Point>>()
        );
        for n in [0, 1, 7, 8, 40] {
            let v = points(n);
            let c = Captures::from(v.clone());
            assert_eq!(c.as_slice(), v.as_slice());
            assert_eq!(c, v);
            assert_eq!(c.len(), usize::from(n));
            assert_eq!(Vec::from(c.clone()), v);
            assert_eq!(format!("{c:?}"), format!("{v:?}"));
        }
        assert_eq!(Captures::default(), Captures::from(Vec::new()));
        assert_ne!(Captures::from(points(2)), Captures::from(points(3)));
    }
}
