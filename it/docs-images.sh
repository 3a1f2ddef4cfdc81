#!/usr/bin/env bash
# Regenerates the documentation's pictures in docs/images/ from the real thing, so they never go stale:
#   http-sampler.png, http-raw-sampler.png  `stampede gui` windows, taken by StampedeGuiIT under Xvfb;
#   converted-plan-stampede-panel.png       a converted plans/recorded-shop.jmx in the GUI (ConvertedPlanGuiIT);
#   run-summary.png, dashboard.png          `stampede run plans/quickstart.jmx` (20 s, built-in target): its console
#                                           output and its HTML dashboard, rendered by headless Chromium.
# Needs what it/run-tests.sh installs, plus Debian's chromium (apt-get install chromium). Takes ~3-5 minutes.
# --gui-shots-made: StampedeGuiIT has just run (it/target/gui-command/ is fresh); only copy its windows.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v chromium >/dev/null || { echo "docs-images: Chromium is needed: apt-get install chromium" >&2; exit 2; }
images=docs/images
mkdir -p "$images"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

shot() { # shot URL PNG WIDTH HEIGHT
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$3,$4" \
    --virtual-time-budget=8000 --screenshot="$2" "$1" >/dev/null 2>&1
  [[ -s "$2" ]] || { echo "docs-images: Chromium wrote no $2" >&2; exit 1; }
}

if [[ "${1:-}" != --gui-shots-made ]]; then
  mvn -B -q -pl it -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
    -Dfailsafe.failIfNoSpecifiedTests=false -Dit.test='StampedeGuiIT,ConvertedPlanGuiIT'
fi
cp it/target/gui-command/http-sampler.png it/target/gui-command/http-raw-sampler.png "$images/"
cp it/target/gui/round-trip/recorded-shop-stampede.png "$images/converted-plan-stampede-panel.png"

./stampede run plans/quickstart.jmx -J duration=20 --out "$tmp/run" | tee "$tmp/console.txt"
# The console as a terminal shows it, with this machine's folders cut from the paths.
{
  echo '<!DOCTYPE html><html><body style="margin:0;background:#1e1e1e"><pre style="margin:0;padding:12px;'
  echo 'color:#e0e0e0;font:13px/17px DejaVu Sans Mono,monospace">'
  sed -e "s|$tmp/||g" -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' "$tmp/console.txt"
  echo '</pre></body></html>'
} > "$tmp/console.html"
shot "file://$tmp/console.html" "$images/run-summary.png" 1000 $(( $(wc -l < "$tmp/console.txt") * 17 + 24 ))
shot "file://$tmp/run/dashboard/index.html" "$images/dashboard.png" 1280 960
ls -l "$images"
