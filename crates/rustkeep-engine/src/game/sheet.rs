//! The character sheet (docs/engine.md, "The character sheet"): every attribute as read without an
//! opponent, and, where a modifier's condition makes it differ, its value against each kind of
//! enemy present — `damage 6 (9 against core:skeleton)`.

use std::fmt;

use rustkeep_data::vocab::ATTRIBUTES;

use super::{CreatureRef, Game, World};

/// One line of the sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct SheetLine {
    pub attribute: &'static str,
    /// Read without an opponent.
    pub value: f64,
    /// `(creature, value)` for each kind of enemy present against which the value differs.
    pub against: Vec<(String, f64)>,
}

/// A number as the sheet shows it: whole numbers without decimals, others with at most two.
pub fn shown(v: f64) -> String {
    rustkeep_data::number::trimmed(v, 2)
}

impl fmt::Display for SheetLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.attribute, shown(self.value))?;
        if !self.against.is_empty() {
            let parts: Vec<String> = self.against.iter().map(|(c, v)| format!("{} against {c}", shown(*v))).collect();
            write!(f, " ({})", parts.join(", "))?;
        }
        Ok(())
    }
}

impl Game {
    /// The player's sheet against the enemies present (one enemy of each kind stands for it,
    /// the first by ref).
    pub fn sheet(&self, w: &World) -> Vec<SheetLine> {
        let mut kinds: Vec<(String, CreatureRef)> = Vec::new();
        for e in self.enemies.iter().filter(|e| e.body.health > 0) {
            if let Some(c) = &e.body.creature {
                if !kinds.iter().any(|(k, _)| k == c) {
                    kinds.push((c.clone(), CreatureRef::Enemy(e.index)));
                }
            }
        }
        ATTRIBUTES
            .iter()
            .map(|(attribute, _)| {
                let value = self.attribute(w, CreatureRef::Player, attribute, None);
                let against = kinds
                    .iter()
                    .map(|(c, r)| (c.clone(), self.attribute(w, CreatureRef::Player, attribute, Some(*r))))
                    .filter(|(_, v)| (v - value).abs() > 1e-9)
                    .collect();
                SheetLine { attribute, value, against }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_like_the_sheet() {
        let l = SheetLine { attribute: "damage", value: 6.0, against: vec![("core:skeleton".into(), 9.0)] };
        assert_eq!(l.to_string(), "damage 6 (9 against core:skeleton)");
        let l = SheetLine { attribute: "crit_chance", value: 0.1, against: Vec::new() };
        assert_eq!(l.to_string(), "crit_chance 0.1");
    }

    /// The sheet and the trace write numbers as every output does (`rustkeep_data::number`):
    /// rounded in decimal, a tie away from zero, where rounding the double went to the even digit
    /// or below.
    #[test]
    fn numbers_round_in_decimal_as_every_output_does() {
        assert_eq!((shown(0.125), shown(2.675), shown(-0.0), shown(7.0)), ("0.13".into(), "2.68".into(), "0".into(), "7".into()));
        assert_eq!((crate::game::acts::shown_chance(0.12345), crate::game::acts::shown_chance(0.85)), ("0.1235".into(), "0.85".into()));
    }
}
