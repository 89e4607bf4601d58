//! Loot entries: exactly one of `item`, `table`, `affix` or `nothing`, and a `weight` unless
//! guaranteed.

use crate::tree::Table;

use super::{Ctx, Lower};
use crate::diag::Code;
use crate::model::*;
use crate::suggest;
use crate::text::Span;
use crate::vocab::*;

impl Lower<'_> {
    pub(super) fn loot_entry(&mut self, table: &Table<'_>, span: Span) -> Option<LootEntry> {
        let before = self.errors;
        let present = self.known_fields(table, LOOT_ENTRY_FIELDS, Code::UnknownField, &"a loot entry");
        let mut kinds: Vec<(&str, LootKind)> = Vec::new();
        let mut weight: Option<u64> = None;
        let mut weight_span = None;
        let mut guaranteed = false;
        let mut count = None;
        let mut count_span = None;
        let mut affixes = None;
        let mut affixes_span = None;
        let mut kind_values_ok = true;
        for (def, key_span, v) in &present {
            let value = self.value(def, v, Ctx::Loot);
            match (def.name, value) {
                (field::ITEM, Some(Value::Ref(r))) => kinds.push((field::ITEM, LootKind::Item(r))),
                (field::TABLE, Some(Value::Ref(r))) => kinds.push((field::TABLE, LootKind::Table(r))),
                (field::AFFIX, Some(Value::Ref(r))) => kinds.push((field::AFFIX, LootKind::Affix(r))),
                (field::NOTHING, Some(Value::Bool(true))) => kinds.push((field::NOTHING, LootKind::Nothing)),
                (field::NOTHING, Some(Value::Bool(false))) => {}
                (field::ITEM | field::TABLE | field::AFFIX | field::NOTHING, None) => kind_values_ok = false,
                (field::WEIGHT, Some(Value::Int(n))) => {
                    weight = Some(n as u64);
                    weight_span = Some(v.span());
                }
                (field::WEIGHT, None) => weight_span = Some(v.span()),
                (field::GUARANTEED, Some(Value::Bool(b))) => guaranteed = b,
                (field::COUNT, Some(Value::Range(r))) => {
                    count = Some(r);
                    count_span = Some(key_span.clone());
                }
                (field::AFFIXES, Some(Value::Ref(r))) => {
                    affixes_span = Some(key_span.clone());
                    affixes = Some(r);
                }
                _ => {}
            }
        }
        if kind_values_ok && kinds.len() != 1 {
            let msg = if kinds.is_empty() {
                "this loot entry says neither what it gives nor that it is a blank: give exactly one of `item`, `table`, `affix` or `nothing = true`"
                    .to_string()
            } else {
                format!("this loot entry has {}: give exactly one of `item`, `table`, `affix` or `nothing = true`", suggest::list(kinds.iter().map(|k| k.0)))
            };
            self.diag(Code::AmbiguousEntry, span.clone(), msg);
        }
        let kind = if kinds.len() == 1 { kinds.pop().map(|k| k.1) } else { None };
        let is_item = matches!(kind, Some(LootKind::Item(_)));
        if kind.is_some() && !is_item {
            if let Some(s) = count_span {
                self.diag(Code::UnknownField, s, "`count` applies to `item` entries only");
            }
            if let Some(s) = affixes_span {
                self.diag(Code::UnknownField, s, "`affixes` applies to `item` entries only");
            }
        }
        if guaranteed {
            if let Some(s) = weight_span.clone() {
                self.diag(Code::InvalidWeight, s, "a guaranteed entry takes no `weight`: it is always given once, outside the weighted draw");
            }
            if matches!(kind, Some(LootKind::Nothing)) {
                self.diag(Code::InvalidWeight, span.clone(), "a `nothing` entry cannot be guaranteed: give it a `weight` or remove it");
            }
        } else if weight_span.is_none() && kind.is_some() {
            self.diag(Code::InvalidWeight, span.clone(), "this weighted entry has no `weight`: add `weight = 1` (or more), or `guaranteed = true`");
        }
        if self.errors > before {
            let items = kind.iter().chain(kinds.iter().map(|k| &k.1)).filter_map(|k| match k {
                LootKind::Item(item) => Some(item.value.clone()),
                _ => None,
            });
            self.broken_given.extend(items);
            return None;
        }
        Some(LootEntry { span, kind: kind?, weight: if guaranteed { None } else { weight }, guaranteed, count: count.unwrap_or(Range::ONE), affixes })
    }
}
