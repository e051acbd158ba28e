#pragma once

#include <QMenu>

namespace topodeck {

// View › Theme: follow the desktop, light or dark. A choice is applied at once and remembered.
class ThemeMenu : public QMenu {
    Q_OBJECT
public:
    explicit ThemeMenu(QWidget* parent = nullptr);
};

} // namespace topodeck
