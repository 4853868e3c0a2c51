//! Checks of the README as a Godot user reads it: short, the two commands first, every link
//! to a file that exists, and every figure in "Status and limits" the one the generated page it
//! links to gives (the README copies no figure by hand that the page does not hold).

#![cfg(test)]

use std::path::Path;

fn readme() -> String {
    std::fs::read_to_string(crate::repo_root().join("README.md")).expect("README.md")
}

/// The figures of a text: runs of digits with the dots and commas inside them ("2.77",
/// "42,394"); "7 of 10" and "1 of the 5" stay one figure, as the pages write a count of a whole.
fn figures(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    // Where a figure must start to make "A of B" with the one before.
    let mut joined = None;
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'))
        {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_digit()
                    || (matches!(chars[i], '.' | ',')
                        && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit())))
            {
                i += 1;
            }
            let figure: String = chars[start..i].iter().collect();
            match joined.take() {
                Some((at, words)) if at == start => {
                    let last = out.pop().unwrap_or_default();
                    out.push(format!("{last}{words}{figure}"));
                }
                _ => out.push(figure),
            }
            // "7 of 10", "1 of the 5": a count of a whole, one figure.
            let after: String = chars[i..].iter().take(8).collect();
            for words in [" of the ", " of "] {
                if after.starts_with(words) {
                    joined = Some((i + words.len(), words));
                    break;
                }
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Whether `page` holds `figure` as a whole figure (not inside a longer one).
fn holds(page: &str, figure: &str) -> bool {
    page.match_indices(figure).any(|(at, _)| {
        let before = page[..at].chars().next_back();
        let after = page[at + figure.len()..].chars().next();
        let apart = |c: Option<char>| c.is_none_or(|c| !c.is_ascii_digit());
        apart(before) && apart(after)
    })
}

/// The relative links of a markdown text: `](target)`.
fn links(text: &str) -> Vec<&str> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .filter(|t| !t.starts_with("http") && !t.starts_with('#'))
        .collect()
}

/// Each bullet of the "Status and limits" section.
fn status_bullets(readme: &str) -> Vec<String> {
    let section = readme
        .split("## Status and limits")
        .nth(1)
        .expect("a Status and limits section")
        .split("\n## ")
        .next()
        .unwrap_or_default();
    section
        .split("\n- ")
        .skip(1)
        .map(|b| b.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn the_readme_is_short_and_starts_with_the_demo_and_the_tests() {
    let text = readme();
    assert!(
        text.lines().count() <= 100,
        "{} lines",
        text.lines().count()
    );
    let first_block = text.split("```").nth(1).expect("a code block");
    let commands: Vec<&str> = first_block
        .lines()
        .filter_map(|l| l.split('#').next())
        .map(str::trim)
        .filter(|l| l.starts_with("cargo"))
        .collect();
    assert_eq!(commands, ["cargo xtask demo", "cargo xtask test"]);
    // CI runs the README's test command.
    let ci = std::fs::read_to_string(crate::repo_root().join(".ci/run")).expect(".ci/run");
    assert!(ci.lines().any(|l| l.trim() == "cargo xtask test"));
}

#[test]
fn every_link_in_the_readme_and_the_docs_names_a_file() {
    let root = crate::repo_root();
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .flatten()
    {
        if entry.path().extension().is_some_and(|e| e == "md") {
            pages.push(entry.path());
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("a page");
        let dir = page.parent().unwrap_or(Path::new("."));
        for link in links(&text) {
            let file = link.split('#').next().unwrap_or_default();
            if !file.is_empty() && !dir.join(file).exists() {
                broken.push(format!("{}: {link}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "links to no file: {broken:#?}");
}

#[test]
fn every_figure_in_the_readmes_status_is_the_linked_pages() {
    let root = crate::repo_root();
    let bullets = status_bullets(&readme());
    assert_eq!(bullets.len(), 4, "four bullets: {bullets:#?}");
    for bullet in &bullets {
        let page = links(bullet)
            .into_iter()
            .find(|l| l.starts_with("docs/"))
            .unwrap_or_else(|| panic!("no page linked: {bullet}"));
        let page = std::fs::read_to_string(root.join(page)).expect("the linked page");
        let found = figures(bullet);
        assert!(!found.is_empty(), "no figure: {bullet}");
        for figure in found {
            assert!(
                holds(&page, &figure),
                "{figure} is not on the page: {bullet}"
            );
        }
    }
}

#[test]
fn figures_are_read_whole() {
    assert_eq!(
        figures("7 of 10 met, 2.77 cm, 42,394 in x86_64; 1 of the 5, 12000."),
        ["7 of 10", "2.77", "42,394", "1 of the 5", "12000"]
    );
    assert!(holds("took 42394 instructions", "42394"));
    assert!(!holds("took 142394 instructions", "42394"));
    assert!(!holds("2.775 cm", "2.77"));
}
