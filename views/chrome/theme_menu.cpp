#include "views/chrome/theme_menu.h"

#include "views/chrome/app_settings.h"
#include "views/chrome/theme.h"

#include <QActionGroup>

#include <utility>

namespace topodeck {

ThemeMenu::ThemeMenu(QWidget* parent) : QMenu(tr("&Theme"), parent) {
    const std::pair<ThemeChoice, QString> themes[] = {{ThemeChoice::System, tr("Follow the &Desktop")},
                                                      {ThemeChoice::Light, tr("&Light")},
                                                      {ThemeChoice::Dark, tr("D&ark")}};
    auto* group = new QActionGroup(this);
    for (const auto& [choice, text] : themes) {
        QAction* action = addAction(text);
        action->setCheckable(true);
        action->setChecked(choice == AppSettings().theme());
        group->addAction(action);
        connect(action, &QAction::triggered, this, [choice = choice] {
            AppSettings().setTheme(choice);
            Theme::apply(choice);
        });
    }
}

} // namespace topodeck
