use voicebox_core::resolver::{Folder, resolve_in};
#[test]
fn scratch() {
    let folder: Vec<String> = std::env::var("F")
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    for line in std::fs::read_to_string("/tmp/s.txt")
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
    {
        println!(
            "{line:?}\n   => {:?}",
            resolve_in(line, &Folder::new(folder.clone()))
        );
    }
}
