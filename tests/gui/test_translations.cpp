// The English catalogue: every string with a count has its singular and plural written (so no
// screen says "1 node(s)"), it is compiled into the application, and installed it gives "1 label
// change" and "2 label changes".
#include "translations/translations.h"
#include "views/pages/changes_page.h"
#include "support/test_program.h"

#include <QApplication>
#include <QFile>
#include <QTest>
#include <QXmlStreamReader>

using namespace topodeck;

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyCountHasItsForms() {
        QFile file(QStringLiteral(TOPODECK_TEST_DATA_DIR "/../../translations/topodeck_en.ts"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        int messages = 0;
        QString source;
        QStringList forms;
        bool unfinished = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("message")) {
                ++messages;
                forms.clear();
                unfinished = false;
            } else if (xml.isStartElement() && xml.name() == QLatin1String("source")) {
                source = xml.readElementText();
            } else if (xml.isStartElement() && xml.name() == QLatin1String("translation")) {
                unfinished = xml.attributes().value(QLatin1String("type")) == QLatin1String("unfinished");
            } else if (xml.isStartElement() && xml.name() == QLatin1String("numerusform")) {
                forms << xml.readElementText();
            } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
                QVERIFY2(!unfinished && forms.size() == 2 && !forms[0].isEmpty() && !forms[1].isEmpty(),
                         qPrintable(source + QStringLiteral(": run translations/update-plurals.sh and write both forms")));
                QVERIFY2(!forms[0].contains(QStringLiteral("(s)")) && !forms[1].contains(QStringLiteral("(s)")), qPrintable(source));
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(messages >= 20);
    }

    void installedItCounts() {
        QVERIFY(installTranslations(*qApp));
        QCOMPARE(ChangesPage::tr("%n label change(s)", nullptr, 1), QStringLiteral("1 label change"));
        QCOMPARE(ChangesPage::tr("%n label change(s)", nullptr, 2), QStringLiteral("2 label changes"));
        QCOMPARE(ChangesPage::tr("%n label change(s)", nullptr, 0), QStringLiteral("0 label changes"));
    }
};

TOPODECK_TEST_MAIN(TestTranslations)
#include "test_translations.moc"
