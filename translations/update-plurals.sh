#!/usr/bin/env bash
# Refreshes translations/topodeck_en.ts from the sources: every tr() string with a count (%n),
# whose English singular and plural forms the catalogue holds ("1 node", "2 nodes"). lupdate
# keeps the forms already written; new strings come in unfinished, for a person to fill in (the
# GUI test test_translations fails until they are).
set -euo pipefail
cd "$(dirname "$0")/.."
qt=/usr/include/x86_64-linux-gnu/qt6
/usr/lib/qt6/bin/lupdate -pluralonly -no-obsolete -locations none -source-language en -target-language en \
    -I . -I backend -I "$qt" -I "$qt/QtCore" -I "$qt/QtGui" -I "$qt/QtWidgets" \
    app views models -ts translations/topodeck_en.ts
