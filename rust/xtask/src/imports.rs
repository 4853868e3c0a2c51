//! No import circles between the files of a crate: a test over every crate's sources. A file
//! and its own submodules may use each other; any other circle (two files that use each other,
//! directly or through others, or through a submodule of either) is one, so a reader can take
//! the files in an order where each uses only what came before. Test code (`#[cfg(test)]`
//! items and test files) is left out.

#![cfg(test)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path inside its crate (`["lower_body", "feet"]`; the root is empty).
type Module = Vec<String>;

/// Every `.rs` file under `dir` (the crate's `src/`), but the separate crates of `src/bin/`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "bin") {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file is, by its place under `src`.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        parts.clear();
    } else if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// `text` without comments, string contents and `#[cfg(test)]` items.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let next = chars.get(i + 1).copied();
        match chars[i] {
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '/' if next == Some('*') => {
                i += 2;
                while i < chars.len() && !(chars[i - 1] == '*' && chars[i] == '/') {
                    i += 1;
                }
            }
            '"' => {
                out.push_str("\"\"");
                i += 1;
                let mut escaped = false;
                while i < chars.len() && (escaped || chars[i] != '"') {
                    escaped = !escaped && chars[i] == '\\';
                    i += 1;
                }
            }
            // A character literal ('"', '\''), not a lifetime ('a): left out whole, so a quote
            // in it starts no string.
            '\'' if next == Some('\\') || chars.get(i + 2) == Some(&'\'') => {
                // Past the escape, or onto the closing quote of a plain one.
                i += if next == Some('\\') { 3 } else { 2 };
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    drop_test_items(&out)
}

/// `code` without its `#[cfg(test)]` items (to their `;`, or their closing brace).
fn drop_test_items(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let brace = after.find('{');
        let semi = after.find(';');
        let end = match (brace, semi) {
            (_, Some(s)) if brace.is_none_or(|b| s < b) => s + 1,
            (Some(b), _) => {
                let mut depth = 0usize;
                let mut end = after.len();
                for (i, c) in after[b..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            _ => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The paths a `use` tree names: `a::{b, c::{d, e}}` is `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let Some(open) = tree.find('{') else {
        return vec![tree.to_string()];
    };
    let (prefix, body) = (
        &tree[..open],
        &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())],
    );
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(&format!("{prefix}{p}")))
        .collect()
}

/// Every path in `code` that starts at `crate`, `super` or `self`: in `use` trees and inline.
fn paths_in(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let word_start =
            at == 0 || !rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        let after = &rest[at + 4..];
        let end = after.find(';').unwrap_or(after.len());
        if word_start {
            let tree: String = after[..end]
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            out.extend(expand(&tree));
        }
        rest = &after[end..];
    }
    let bytes: Vec<char> = code.chars().collect();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < bytes.len() {
        if is_word(bytes[i]) && (i == 0 || !is_word(bytes[i - 1])) {
            let start = i;
            while i < bytes.len() && (is_word(bytes[i]) || bytes[i] == ':') {
                i += 1;
            }
            let path: String = bytes[start..i].iter().collect();
            let path = path.trim_end_matches(':');
            if ["crate::", "super::", "self::"]
                .iter()
                .any(|p| path.starts_with(p))
            {
                out.push(path.to_string());
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The crate's modules (each with its file) and, per module, the modules it uses.
fn graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let mut modules: BTreeMap<Module, PathBuf> = BTreeMap::new();
    let mut tests: BTreeSet<PathBuf> = BTreeSet::new();
    for file in &files {
        modules.insert(module_of(src, file), file.clone());
    }
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let me = module_of(src, file);
        let dir = file.parent().unwrap_or(src);
        let own_dir = if file.ends_with("mod.rs") || me.is_empty() {
            dir.to_path_buf()
        } else {
            file.with_extension("")
        };
        for (at, _) in text.match_indices("mod ") {
            let head = &text[..at];
            let Some(name) = text[at + 4..]
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
            else {
                continue;
            };
            if !text[at + 4 + name.len()..].trim_start().starts_with(';') {
                continue;
            }
            // The attributes on the declaration's own lines above it.
            let attrs: Vec<&str> = head
                .lines()
                .rev()
                .skip(1)
                .take_while(|l| l.trim_start().starts_with("#["))
                .collect();
            let line = head.lines().last().unwrap_or_default();
            let attrs = [attrs.join(" "), line.to_string()].join(" ");
            let path = attrs
                .split("#[path = \"")
                .nth(1)
                .and_then(|p| p.split('"').next());
            let target = match path {
                Some(p) => dir.join(p),
                None => own_dir.join(format!("{name}.rs")),
            };
            let mut module = me.clone();
            module.push(name.to_string());
            if path.is_some() {
                modules.retain(|_, f| *f != target);
                modules.insert(module, target.clone());
            }
            if attrs.contains("#[cfg(test)]") {
                tests.insert(target.clone());
                tests.insert(own_dir.join(name).join("mod.rs"));
            }
        }
    }
    let by_file: BTreeMap<&PathBuf, &Module> = modules.iter().map(|(m, f)| (f, m)).collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for file in &files {
        let (Some(&me), false) = (by_file.get(file), tests.contains(file)) else {
            continue;
        };
        let code = code_of(&std::fs::read_to_string(file).unwrap_or_default());
        for path in paths_in(&code) {
            let mut parts = path.split("::").filter(|p| !p.is_empty()).peekable();
            let mut base: Module = match parts.peek() {
                Some(&"crate") => {
                    parts.next();
                    Vec::new()
                }
                Some(&"super") | Some(&"self") => me.clone(),
                _ => continue,
            };
            while let Some(&p) = parts.peek() {
                match p {
                    "super" => base.truncate(base.len().saturating_sub(1)),
                    "self" => {}
                    _ => break,
                }
                parts.next();
            }
            let rest: Vec<&str> = parts.collect();
            let target = (0..=rest.len())
                .rev()
                .map(|k| {
                    [
                        base.clone(),
                        rest[..k].iter().map(|s| s.to_string()).collect(),
                    ]
                    .concat()
                })
                .find(|m| modules.contains_key(m))
                .unwrap_or_default();
            let related = |a: &Module, b: &Module| a.starts_with(b) || b.starts_with(a);
            if target.is_empty() || related(me, &target) {
                continue;
            }
            // Counted at every level: a file's use is its parent folders' use too.
            for a in (1..=me.len()).map(|k| me[..k].to_vec()) {
                for b in (1..=target.len()).map(|k| target[..k].to_vec()) {
                    if !related(&a, &b) {
                        edges.entry(a.clone()).or_default().insert(b);
                    }
                }
            }
        }
    }
    edges
}

/// The circles of a graph: its strongly connected parts of more than one module.
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    // Kosaraju: the finishing order on the graph, then the parts on the reversed graph.
    let nodes: BTreeSet<&Module> = edges.keys().chain(edges.values().flatten()).collect();
    let mut order = Vec::new();
    let mut seen = BTreeSet::new();
    for &start in &nodes {
        if !seen.insert(start) {
            continue;
        }
        let mut stack = vec![(
            start,
            edges.get(start).into_iter().flatten().collect::<Vec<_>>(),
        )];
        while let Some((node, next)) = stack.last_mut() {
            match next.pop() {
                Some(n) if seen.insert(n) => {
                    let more = edges.get(n).into_iter().flatten().collect();
                    stack.push((n, more));
                }
                Some(_) => {}
                None => {
                    order.push(*node);
                    stack.pop();
                }
            }
        }
    }
    let mut back: BTreeMap<&Module, Vec<&Module>> = BTreeMap::new();
    for (a, bs) in edges {
        for b in bs {
            back.entry(b).or_default().push(a);
        }
    }
    let mut placed = BTreeSet::new();
    let mut out = Vec::new();
    for &start in order.iter().rev() {
        if !placed.insert(start) {
            continue;
        }
        let mut part = vec![start.clone()];
        let mut todo = vec![start];
        while let Some(n) = todo.pop() {
            for &m in back.get(n).into_iter().flatten() {
                if placed.insert(m) {
                    part.push(m.clone());
                    todo.push(m);
                }
            }
        }
        if part.len() > 1 {
            part.sort();
            out.push(part);
        }
    }
    out
}

#[test]
fn no_crate_has_an_import_circle() {
    let root = crate::repo_root().join("rust");
    let mut found = Vec::new();
    for krate in ["vr_arms_core", "vr_arms", "vr_arms_eval", "xtask"] {
        for part in circles(&graph(&root.join(krate).join("src"))) {
            let names: Vec<String> = part.iter().map(|m| m.join("::")).collect();
            found.push(format!("{krate}: {}", names.join(" <-> ")));
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// A small crate written out: two files using each other are a circle, a file and its own
/// submodule are not, and a circle through a submodule of one of them is.
#[test]
fn circles_are_found_between_files_and_through_submodules() {
    let dir = std::env::temp_dir().join(format!("vr_arms_imports_{}", std::process::id()));
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "lib.rs",
        "mod a;\nmod b;\nmod c;\nmod d;\nmod e;\nmod f;\n#[cfg(test)]\nmod t;\n",
    );
    // a and its own submodule use each other: no circle.
    write("a.rs", "mod inner;\nuse self::inner::X;\npub struct Y;\n");
    write("a/inner.rs", "use super::Y;\npub struct X;\n");
    // b <-> c directly.
    write("b.rs", "use crate::c::Z;\npub struct W;\n");
    write("c.rs", "pub struct Z;\nfn f() { let _ = crate::b::W; }\n");
    // A test file using d, which uses it back: test code is left out.
    write("d.rs", "mod sub;\n");
    write("d/sub.rs", "use crate::t::T;\n");
    write("t.rs", "use crate::d::sub;\npub struct T;\n");
    // e's submodule uses f, which uses e: a circle through a submodule.
    write("e.rs", "mod sub;\npub struct E;\n");
    write("e/sub.rs", "use crate::f::F;\n");
    write("f.rs", "use crate::e::E;\npub struct F;\n");
    let found = circles(&graph(&dir));
    std::fs::remove_dir_all(&dir).ok();
    let mut names: Vec<Vec<String>> = found
        .iter()
        .map(|p| p.iter().map(|m| m.join("::")).collect())
        .collect();
    names.sort();
    assert_eq!(names, [["b", "c"], ["e", "f"]]);
}

#[test]
fn a_use_tree_names_every_path() {
    assert_eq!(
        expand("crate::a::{b,c::{d,e},f::G}"),
        [
            "crate::a::b",
            "crate::a::c::d",
            "crate::a::c::e",
            "crate::a::f::G"
        ]
    );
    let code = code_of("use x; // crate::no\nlet s = \"crate::no\"; crate::yes::Z;\n");
    assert_eq!(paths_in(&code), ["x", "crate::yes::Z"]);
    // A quote in a character literal starts no string; a lifetime is no character literal.
    let code = code_of("let q = '\"'; let e = '\\''; fn f<'a>(x: &'a str) { crate::seen::Y; }");
    assert_eq!(paths_in(&code), ["crate::seen::Y"]);
}
