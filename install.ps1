<#
.SYNOPSIS
Installs yieldshell from a GitHub release.

.DESCRIPTION
Picks the binary for this machine, downloads it and SHA256SUMS, refuses it unless its checksum
matches, checks that it runs here, puts it in the install directory and, on Windows, adds that
directory to the user's PATH. Each parameter can also be given as the environment variable
named beside it, which is how to pass them to `irm ... | iex`.

.PARAMETER Version
Release tag, e.g. v0.1.0 (default: the latest release). YIELDSHELL_VERSION.

.PARAMETER InstallDir
Where to put yieldshell (default: %LOCALAPPDATA%\Programs\yieldshell on Windows,
~/.local/bin elsewhere). YIELDSHELL_INSTALL_DIR.

.PARAMETER BaseUrl
Where the assets are (default: the GitHub release); file:///C:/some/dir reads a local
directory laid out like a release. YIELDSHELL_BASE_URL.

.PARAMETER NoModifyPath
Do not add the install directory to the user's PATH. YIELDSHELL_NO_MODIFY_PATH=1.

.PARAMETER DryRun
Print what would be downloaded and installed, and do nothing.

.EXAMPLE
irm https://github.com/yieldshell/yieldshell/releases/latest/download/install.ps1 | iex

.EXAMPLE
powershell -ExecutionPolicy Bypass -File install.ps1 -Version v0.1.0 -InstallDir C:\tools
#>
[CmdletBinding()]
param(
  [string]$Version = $env:YIELDSHELL_VERSION,
  [string]$InstallDir = $env:YIELDSHELL_INSTALL_DIR,
  [string]$BaseUrl = $env:YIELDSHELL_BASE_URL,
  [switch]$NoModifyPath = ($env:YIELDSHELL_NO_MODIFY_PATH -eq '1'),
  [switch]$DryRun
)

# Errors are thrown, never `exit`: under `irm | iex` an exit would close the user's window.
$ErrorActionPreference = 'Stop'
# Windows PowerShell 5.1 renders a progress bar per chunk, which slows downloads tenfold.
$ProgressPreference = 'SilentlyContinue'

$Repo = if ($env:YIELDSHELL_REPO) { $env:YIELDSHELL_REPO } else { 'yieldshell/yieldshell' }

# Windows PowerShell 5.1 has no $IsWindows; it only runs on Windows.
function Test-Windows {
  $variable = Get-Variable -Name IsWindows -ErrorAction SilentlyContinue
  return ($null -eq $variable) -or $variable.Value
}

function Get-Target {
  if (Test-Windows) {
    $arch = $env:PROCESSOR_ARCHITEW6432
    if (-not $arch) { $arch = $env:PROCESSOR_ARCHITECTURE }
    switch ($arch) {
      'AMD64' { return 'x86_64-pc-windows-msvc' }
      # Windows 11 on Arm runs x64 binaries under emulation; there is no native build yet.
      'ARM64' { return 'x86_64-pc-windows-msvc' }
      default { throw "No yieldshell binary for Windows on $arch`: releases have Windows x86_64 only" }
    }
  }
  $arch = [System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture.ToString()
  $cpu = switch ($arch) {
    'X64' { 'x86_64' }
    'Arm64' { 'aarch64' }
    default { throw "No yieldshell binary for the $arch processor: releases have x86_64 and aarch64" }
  }
  $macOS = Get-Variable -Name IsMacOS -ValueOnly -ErrorAction SilentlyContinue
  if ($macOS) { return "$cpu-apple-darwin" }
  return "$cpu-unknown-linux-gnu"
}

function Get-Asset([string]$Url, [string]$Destination) {
  if ($Url.StartsWith('file://')) {
    $source = ([Uri]$Url).LocalPath
    if (-not (Test-Path -LiteralPath $source -PathType Leaf)) {
      throw "Cannot read $source`: no such file in the release directory"
    }
    Copy-Item -LiteralPath $source -Destination $Destination
    return
  }
  try {
    Invoke-WebRequest -Uri $Url -OutFile $Destination -UseBasicParsing
  } catch {
    throw "Cannot download $Url ($($_.Exception.Message))"
  }
}

function Get-ExpectedSum([string]$Asset, [string]$SumsFile) {
  foreach ($line in Get-Content -LiteralPath $SumsFile) {
    $fields = $line.Trim() -split '\s+'
    if ($fields.Count -ge 2 -and ($fields[1] -eq $Asset -or $fields[1] -eq "*$Asset")) {
      return $fields[0].ToLowerInvariant()
    }
  }
  return $null
}

function Add-UserPath([string]$Directory) {
  $userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
  $entries = @($userPath -split ';' | Where-Object { $_ -ne '' })
  if ($entries -notcontains $Directory) {
    [Environment]::SetEnvironmentVariable('Path', (($entries + $Directory) -join ';'), 'User')
    Write-Output "Added $Directory to your user PATH; new terminals will find yieldshell"
  }
  if (@($env:Path -split ';') -notcontains $Directory) { $env:Path = "$env:Path;$Directory" }
}

# Runs the binary with --version; returns its output, or throws saying why it does not run.
function Get-ReportedVersion([string]$Binary, [string]$Asset) {
  # Windows PowerShell 5.1 turns a native command's stderr into errors, fatal under 'Stop'.
  $ErrorActionPreference = 'Continue'
  try {
    $reported = (& $Binary --version 2>&1 | Out-String).Trim()
    $failed = $LASTEXITCODE -ne 0
  } catch {
    $reported = $_.Exception.Message
    $failed = $true
  }
  if ($failed) {
    throw "Refusing to install $Asset`: it passes its checksum but does not run on this " +
      "machine ($reported). Nothing was installed"
  }
  return $reported
}

function Install-Yieldshell([string]$Tag, [string]$Directory, [string]$Url) {
  $onWindows = Test-Windows
  if ($Tag -and -not $Tag.StartsWith('v')) { $Tag = "v$Tag" }
  if (-not $Directory) {
    $Directory = if ($onWindows) {
      Join-Path $env:LOCALAPPDATA 'Programs\yieldshell'
    } else {
      Join-Path $HOME '.local/bin'
    }
  }
  if (-not $Url) {
    $Url = if ($Tag) {
      "https://github.com/$Repo/releases/download/$Tag"
    } else {
      "https://github.com/$Repo/releases/latest/download"
    }
  }
  $base = $Url.TrimEnd('/')
  $target = Get-Target
  $asset = "yieldshell-$target"
  if ($onWindows) { $asset = "$asset.exe" }
  $name = if ($onWindows) { 'yieldshell.exe' } else { 'yieldshell' }
  $destination = Join-Path $Directory $name

  if ($DryRun) {
    Write-Output "target:  $target"
    Write-Output "binary:  $base/$asset"
    Write-Output "sums:    $base/SHA256SUMS"
    Write-Output "install: $destination"
    return
  }

  # Windows PowerShell 5.1 may default to TLS 1.0, which GitHub refuses.
  if ($PSVersionTable.PSVersion.Major -lt 6) {
    [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor
      [Net.SecurityProtocolType]::Tls12
  }
  $temp = Join-Path ([IO.Path]::GetTempPath()) ("yieldshell-" + [Guid]::NewGuid().ToString('N'))
  New-Item -ItemType Directory -Path $temp | Out-Null
  try {
    Write-Output "Downloading $asset from $base"
    $sums = Join-Path $temp 'SHA256SUMS'
    $download = Join-Path $temp $asset
    Get-Asset "$base/SHA256SUMS" $sums
    Get-Asset "$base/$asset" $download

    $expected = Get-ExpectedSum $asset $sums
    if (-not $expected) {
      throw "Refusing to install $asset`: SHA256SUMS has no line for it. Nothing was installed"
    }
    $actual = (Get-FileHash -Algorithm SHA256 -LiteralPath $download).Hash.ToLowerInvariant()
    if ($actual -ne $expected) {
      throw "Refusing to install $asset`: its SHA-256 is $actual but SHA256SUMS says $expected, " +
        "so the download is corrupt or was tampered with. Nothing was installed"
    }
    Write-Output "Checksum verified: $actual"

    if (-not $onWindows) { & chmod 755 $download }
    $reported = Get-ReportedVersion $download $asset
    if ($Tag -and $reported -ne "yieldshell $($Tag.Substring(1))") {
      throw "Refusing to install $asset`: it reports `"$reported`", not yieldshell " +
        "$($Tag.Substring(1)). Nothing was installed"
    }

    New-Item -ItemType Directory -Force -Path $Directory | Out-Null
    # Copy beside the target, then rename over it.
    $staged = Join-Path $Directory ".$name.new"
    Copy-Item -LiteralPath $download -Destination $staged -Force
    if (-not $onWindows) { & chmod 755 $staged }
    try {
      Move-Item -LiteralPath $staged -Destination $destination -Force
    } catch {
      Remove-Item -LiteralPath $staged -Force -ErrorAction SilentlyContinue
      throw "Cannot replace $destination ($($_.Exception.Message)); close the clients running it and try again"
    }
    Write-Output "Installed $reported to $destination"
  } finally {
    Remove-Item -LiteralPath $temp -Recurse -Force -ErrorAction SilentlyContinue
  }

  if ($onWindows -and -not $NoModifyPath) {
    Add-UserPath $Directory
  } elseif (@($env:PATH -split [IO.Path]::PathSeparator) -notcontains $Directory) {
    Write-Output "$Directory is not on your PATH yet; add it to your shell's profile"
  }
  Write-Output "Wire it into a client with its absolute path, e.g.: claude mcp add yieldshell -- $destination"
}

Install-Yieldshell -Tag $Version -Directory $InstallDir -Url $BaseUrl
