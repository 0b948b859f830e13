// The page in web/ is embedded into the binary; rebuild when it changes.
fn main() {
    println!("cargo:rerun-if-changed=../../web");
}
