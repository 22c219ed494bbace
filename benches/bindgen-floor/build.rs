use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-env-changed=LIBCUDA_SYS_INCLUDE_DIR");
    let include = std::env::var("LIBCUDA_SYS_INCLUDE_DIR").expect("LIBCUDA_SYS_INCLUDE_DIR");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    bindgen::Builder::default()
        .header(format!("{include}/cuda.h"))
        .clang_arg(format!("-I{include}"))
        .default_enum_style(bindgen::EnumVariation::NewType { is_bitfield: false, is_global: false })
        .generate()
        .expect("bindgen over cuda.h")
        .write_to_file(out.join("bindings.rs"))
        .expect("bindings.rs");
    println!("cargo::rustc-link-lib=dylib=cuda");
}
