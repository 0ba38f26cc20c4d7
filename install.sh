#!/bin/sh
# Installs yieldshell from a GitHub release: picks the binary for this machine, downloads it
# and SHA256SUMS, refuses it unless its checksum matches, checks that it runs here, and puts it
# in the install directory (default ~/.local/bin).
#
#   curl -fsSL https://github.com/yieldshell/yieldshell/releases/latest/download/install.sh | sh
#   curl -fsSL .../install.sh | sh -s -- --version v0.1.0 --dir /usr/local/bin
#
# Options and their environment variables: see usage() below or run it with --help. A base URL
# of file:///some/dir installs from a local directory laid out like a release (the tests do).
# Windows: use install.ps1 instead (irm .../install.ps1 | iex).
set -eu

REPO="${YIELDSHELL_REPO:-yieldshell/yieldshell}"
TARGETS="x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu x86_64-apple-darwin aarch64-apple-darwin"

say() {
  printf '%s\n' "$*"
}

die() {
  printf 'install.sh: %s\n' "$*" >&2
  exit 1
}

usage() {
  cat <<'EOF'
Usage: install.sh [--version TAG] [--dir DIR] [--base-url URL] [--dry-run]

Installs the yieldshell release binary for this machine after checking it against SHA256SUMS.

  --version TAG   release tag, e.g. v0.1.0 (default: the latest); env YIELDSHELL_VERSION
  --dir DIR       install directory (default: $HOME/.local/bin); env YIELDSHELL_INSTALL_DIR
  --base-url URL  where the assets are (default: the GitHub release; file:///dir for a local
                  directory); env YIELDSHELL_BASE_URL
  --dry-run       print what would be downloaded and installed, and do nothing
  --help          print this help
EOF
}

# The release target of this machine, e.g. x86_64-unknown-linux-gnu.
detect_target() {
  os=$(uname -s)
  arch=$(uname -m)
  case "$arch" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) die "No yieldshell binary for the $arch processor: releases have $TARGETS and Windows x86_64; build one with deno task compile" ;;
  esac
  case "$os" in
    Linux) printf '%s\n' "$arch-unknown-linux-gnu" ;;
    Darwin)
      # An x86_64 shell under Rosetta on Apple Silicon: the native binary is the right one.
      if [ "$arch" = x86_64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
        arch=aarch64
      fi
      printf '%s\n' "$arch-apple-darwin"
      ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT)
      die "On Windows, install with PowerShell: irm https://github.com/$REPO/releases/latest/download/install.ps1 | iex"
      ;;
    *) die "No yieldshell binary for $os: releases have $TARGETS and Windows x86_64; build one with deno task compile" ;;
  esac
}

# download URL FILE: file:// URLs are copied, anything else is fetched with curl or wget.
download() {
  case "$1" in
    file://*)
      cp "${1#file://}" "$2" 2>/dev/null || die "Cannot read ${1#file://}: no such file in the release directory"
      ;;
    *)
      if command -v curl >/dev/null 2>&1; then
        curl -fsSL --retry 3 -o "$2" "$1" || die "Cannot download $1 (curl failed; see above)"
      elif command -v wget >/dev/null 2>&1; then
        wget -q -O "$2" "$1" || die "Cannot download $1 (wget failed)"
      else
        die "Cannot download: neither curl nor wget is installed; install one of them and run this again"
      fi
      ;;
  esac
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | awk '{ print $1 }'
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | awk '{ print $1 }'
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 -r "$1" | awk '{ print $1 }'
  else
    die "Cannot verify the download: none of sha256sum, shasum or openssl is installed"
  fi
}

# The line for $1 in the sha256sum-format file $2 (names may carry sha256sum's binary-mode '*').
expected_sum() {
  awk -v name="$1" '$2 == name || $2 == "*" name { print tolower($1); exit }' "$2"
}

path_hint() {
  case "$(basename "${SHELL:-sh}")" in
    zsh) say "  echo 'export PATH=\"$1:\$PATH\"' >> ~/.zshrc" ;;
    bash) say "  echo 'export PATH=\"$1:\$PATH\"' >> ~/.bashrc" ;;
    fish) say "  fish_add_path '$1'" ;;
    *) say "  echo 'export PATH=\"$1:\$PATH\"' >> ~/.profile" ;;
  esac
}

main() {
  version="${YIELDSHELL_VERSION:-}"
  dir="${YIELDSHELL_INSTALL_DIR:-}"
  base_url="${YIELDSHELL_BASE_URL:-}"
  dry_run=0
  while [ $# -gt 0 ]; do
    case "$1" in
      --version) [ $# -ge 2 ] || die "--version needs a release tag, e.g. --version v0.1.0"; version=$2; shift ;;
      --version=*) version=${1#*=} ;;
      --dir) [ $# -ge 2 ] || die "--dir needs a directory, e.g. --dir ~/.local/bin"; dir=$2; shift ;;
      --dir=*) dir=${1#*=} ;;
      --base-url) [ $# -ge 2 ] || die "--base-url needs a URL, e.g. --base-url file:///tmp/release"; base_url=$2; shift ;;
      --base-url=*) base_url=${1#*=} ;;
      --dry-run) dry_run=1 ;;
      -h | --help) usage; exit 0 ;;
      *) die "Unknown option $1: valid options are --version, --dir, --base-url, --dry-run and --help" ;;
    esac
    shift
  done

  if [ -n "$version" ]; then
    case "$version" in v*) ;; *) version="v$version" ;; esac
  fi
  if [ -z "$dir" ]; then
    [ -n "${HOME:-}" ] || die "HOME is not set; pass --dir or set YIELDSHELL_INSTALL_DIR"
    dir="$HOME/.local/bin"
  fi
  if [ -z "$base_url" ]; then
    if [ -n "$version" ]; then
      base_url="https://github.com/$REPO/releases/download/$version"
    else
      base_url="https://github.com/$REPO/releases/latest/download"
    fi
  fi
  base_url=${base_url%/}

  target=$(detect_target)
  asset="yieldshell-$target"
  if [ "$dry_run" = 1 ]; then
    say "target:  $target"
    say "binary:  $base_url/$asset"
    say "sums:    $base_url/SHA256SUMS"
    say "install: $dir/yieldshell"
    exit 0
  fi

  tmp=$(mktemp -d 2>/dev/null || mktemp -d -t yieldshell) || die "Cannot create a temporary directory"
  trap 'rm -rf "$tmp"' EXIT
  trap 'exit 130' INT TERM

  say "Downloading $asset from $base_url"
  download "$base_url/SHA256SUMS" "$tmp/SHA256SUMS"
  download "$base_url/$asset" "$tmp/$asset"

  expected=$(expected_sum "$asset" "$tmp/SHA256SUMS")
  [ -n "$expected" ] || die "Refusing to install $asset: SHA256SUMS has no line for it. Nothing was installed"
  actual=$(sha256_of "$tmp/$asset")
  if [ "$actual" != "$expected" ]; then
    die "Refusing to install $asset: its SHA-256 is $actual but SHA256SUMS says $expected, so the download is corrupt or was tampered with. Nothing was installed"
  fi
  say "Checksum verified: $actual"

  chmod 755 "$tmp/$asset"
  if ! reported=$("$tmp/$asset" --version 2>&1); then
    die "Refusing to install $asset: it passes its checksum but does not run on this machine ($reported). Nothing was installed"
  fi
  if [ -n "$version" ] && [ "$reported" != "yieldshell ${version#v}" ]; then
    die "Refusing to install $asset: it reports \"$reported\", not yieldshell ${version#v}. Nothing was installed"
  fi

  mkdir -p "$dir" || die "Cannot create $dir; pass --dir with a directory you can write"
  # Copy beside the target, then rename: a running yieldshell keeps its old file.
  cp "$tmp/$asset" "$dir/.yieldshell.new.$$" || die "Cannot write to $dir; pass --dir with a directory you can write"
  chmod 755 "$dir/.yieldshell.new.$$"
  mv -f "$dir/.yieldshell.new.$$" "$dir/yieldshell"
  say "Installed $reported to $dir/yieldshell"

  case ":${PATH:-}:" in
    *":$dir:"*) ;;
    *)
      say "$dir is not on your PATH yet; add it with:"
      path_hint "$dir"
      ;;
  esac
  say "Wire it into a client with its absolute path, e.g.: claude mcp add yieldshell -- $dir/yieldshell"
}

main "$@"
