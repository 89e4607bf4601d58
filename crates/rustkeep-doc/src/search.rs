//! The search index: one record per mod and per entry in force — its ID, its name (cut to
//! [`crate::html::SHOWN`] characters), what it is and its page — in shards of scripts that the search box loads the first time it is used, so
//! that no page carries the index and no shard is heavy. Scripts, not JSON: a page opened from
//! `file://` may not `fetch` a file.

use rustkeep_data::vocab::Registry;

use crate::html::short;
use crate::site::Site;

/// Shard `i` of the index, `static/search-N.js`, calling `rkSearch.add([[id, name, kind, path], …])`:
/// the mods, then every entry in force by registry and ID, cut into [`Site::shards`] parts.
pub fn shard(site: &Site, i: usize) -> (String, String) {
    let mut records: Vec<[String; 4]> = Vec::new();
    let total = site.entry_count() + site.mods.len();
    let per = total.div_ceil(site.shards.max(1)).max(1);
    let (from, to) = (i * per, ((i + 1) * per).min(total));
    let mut at = 0;
    let mut keep = |r: &dyn Fn() -> Option<[String; 4]>| {
        if (from..to).contains(&at) {
            if let Some(r) = r() {
                records.push(r);
            }
        }
        at += 1;
    };
    for m in &site.mods {
        let info = &site.w.project.mods[m.index];
        keep(&|| {
            Some([info.id.clone(), short(info.manifest.name.as_deref().unwrap_or_default()).into_owned(), "mod".into(), format!("mods/{}/index.html", m.dir)])
        });
    }
    for registry in Registry::ALL {
        let mut ids: Vec<&String> = site.w.db.resolved.defs[registry.index()].keys().filter(|id| site.link(registry, id).is_some()).collect();
        ids.sort();
        for id in ids {
            keep(&|| {
                let url = site.link(registry, id)?;
                let name = short(site.w.entry(registry, id).and_then(|e| e.name()).unwrap_or("")).into_owned();
                Some([id.clone(), name, registry.noun().into(), url.to_string()])
            });
        }
    }
    let json = serde_json::to_string(&records).unwrap_or_else(|_| "[]".into());
    (format!("static/search-{i}.js"), format!("rkSearch.add({json});\n"))
}
