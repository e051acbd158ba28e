#include "views/chrome/theme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

#include <memory>
#include <optional>

namespace topodeck {

namespace {

std::optional<QPalette>& systemPalette() {
    static std::optional<QPalette> palette;
    return palette;
}

ThemeChoice& currentChoice() {
    static ThemeChoice choice = ThemeChoice::System;
    return choice;
}

} // namespace

void Theme::captureSystemPalette() {
    if (!systemPalette()) systemPalette() = QApplication::palette();
}

void Theme::apply(ThemeChoice choice) {
    captureSystemPalette();
    currentChoice() = choice;
    switch (choice) {
    case ThemeChoice::System:
        QApplication::setPalette(*systemPalette());
        break;
    case ThemeChoice::Light:
        QApplication::setPalette(lightPalette());
        break;
    case ThemeChoice::Dark:
        QApplication::setPalette(darkPalette());
        break;
    }
}

ThemeChoice Theme::current() { return currentChoice(); }

bool Theme::isDark(const QPalette& palette) { return palette.color(QPalette::Window).lightness() < 128; }

bool Theme::systemIsDark() { return isDark(systemPalette() ? *systemPalette() : QApplication::palette()); }

QPalette Theme::lightPalette() {
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    return fusion ? fusion->standardPalette() : QPalette(QColor(0xef, 0xef, 0xef));
}

QPalette Theme::darkPalette() {
    // Greys that sit with the map's dark colours (views/occupancy_palette.cpp), text at about 12:1.
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1f, 0x21, 0x25);
    const QColor text(0xe6, 0xe8, 0xeb);
    const QColor disabledText(0x80, 0x85, 0x8d);
    const QColor button(0x35, 0x38, 0x3e);
    const QColor highlight(0x3b, 0x76, 0xc9);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x28, 0x2a, 0x2f));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x44));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabledText);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    // Fusion draws bevels and frames from these.
    p.setColor(QPalette::Light, QColor(0x4a, 0x4e, 0x56));
    p.setColor(QPalette::Midlight, QColor(0x40, 0x43, 0x4a));
    p.setColor(QPalette::Mid, QColor(0x25, 0x27, 0x2b));
    p.setColor(QPalette::Dark, QColor(0x1a, 0x1b, 0x1e));
    p.setColor(QPalette::Shadow, QColor(0x0e, 0x0f, 0x11));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::Link, QColor(0x78, 0xb0, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb4, 0x96, 0xf0));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x4a, 0x4e, 0x56));
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    return p;
}

QChart::ChartTheme Theme::chartTheme(const QPalette& palette) {
    return isDark(palette) ? QChart::ChartThemeDark : QChart::ChartThemeLight;
}

QString Theme::key(ThemeChoice choice) {
    switch (choice) {
    case ThemeChoice::Light:
        return QStringLiteral("light");
    case ThemeChoice::Dark:
        return QStringLiteral("dark");
    case ThemeChoice::System:
        break;
    }
    return QStringLiteral("system");
}

ThemeChoice Theme::fromKey(const QString& key) {
    if (key == QLatin1String("light")) return ThemeChoice::Light;
    if (key == QLatin1String("dark")) return ThemeChoice::Dark;
    return ThemeChoice::System;
}

} // namespace topodeck
