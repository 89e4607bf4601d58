//! An item as the game holds it: a stack of one item with its affixes, in an inventory, a shop's
//! stock or on a tile of the map.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value as Json};

/// A stack of one item with its affixes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ItemInstance {
    pub item: String,
    pub count: u32,
    #[serde(default)]
    pub affixes: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub equipped: bool,
}

impl ItemInstance {
    pub fn json(&self) -> Json {
        let mut m = Map::new();
        m.insert("item".into(), json!(self.item));
        m.insert("count".into(), json!(self.count));
        m.insert("affixes".into(), json!(self.affixes));
        if self.equipped {
            m.insert("equipped".into(), json!(true));
        }
        Json::Object(m)
    }
}

/// Items as the trace lists them: `2 × core:potion, 1 × core:sword [core:flaming]`, or `nothing`.
pub fn describe_items(items: &[ItemInstance]) -> String {
    if items.is_empty() {
        return "nothing".into();
    }
    items
        .iter()
        .map(|i| {
            let mut s = format!("{} × {}", i.count, i.item);
            if !i.affixes.is_empty() {
                s.push_str(&format!(" [{}]", i.affixes.join(", ")));
            }
            s
        })
        .collect::<Vec<_>>()
        .join(", ")
}
