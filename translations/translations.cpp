#include "translations/translations.h"

#include <QCoreApplication>
#include <QLocale>
#include <QTranslator>

namespace topodeck {

bool installTranslations(QCoreApplication& app) {
    auto* english = new QTranslator(&app);
    const bool loaded = english->load(QStringLiteral(":/topodeck/i18n/topodeck_en.qm"));
    if (loaded) QCoreApplication::installTranslator(english);
    // Installed later, so consulted first: the locale's words over the English forms.
    auto* local = new QTranslator(&app);
    if (local->load(QLocale(), QStringLiteral("topodeck"), QStringLiteral("_"), QStringLiteral(":/topodeck/i18n")) &&
        local->language() != QLatin1String("en"))
        QCoreApplication::installTranslator(local);
    return loaded;
}

} // namespace topodeck
