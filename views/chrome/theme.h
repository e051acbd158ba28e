#pragma once

#include <QChart>
#include <QPalette>
#include <QString>

namespace topodeck {

enum class ThemeChoice { System, Light, Dark };

// Light and dark, following the desktop unless the user chose one (View › Theme). Qt 6.4 has no
// QStyleHints::colorScheme (6.5), so "the desktop is dark" is read off the palette it gives us:
// a window darker than mid-grey. The overrides are the Fusion style's own light palette and a
// dark palette of ours, with the Fusion style (main() sets it) so that every widget follows.
class Theme {
public:
    // Remembers the desktop's palette; call once the QApplication exists, before apply().
    static void captureSystemPalette();
    static void apply(ThemeChoice choice);
    static ThemeChoice current();

    static bool isDark(const QPalette& palette);
    static bool systemIsDark();
    static QPalette lightPalette();
    static QPalette darkPalette();
    // The Qt Charts theme that matches a palette.
    static QChart::ChartTheme chartTheme(const QPalette& palette);

    // How a choice is written in the settings file ("system", "light", "dark"), and back (System
    // for anything else).
    static QString key(ThemeChoice choice);
    static ThemeChoice fromKey(const QString& key);
};

} // namespace topodeck
