// The layering of DESIGN: app -> views -> models -> session -> net -> core, placement on core;
// checked on every #include of the product's sources, with the file, line and rule of each wrong
// arrow. A small broken tree under tests/data/structure shows that each rule bites.
#include "layering.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace topodeck::structure;

namespace {

QString listed(const std::vector<Violation>& violations) {
    QString text;
    for (const Violation& v : violations) text += QString::fromStdString(describe(v)) + QLatin1Char('\n');
    return text;
}

} // namespace

class TestLayering : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void projectFollowsTheRules() {
        const std::vector<Violation> violations = checkTree(TOPODECK_SOURCE_DIR, TOPODECK_QT_INCLUDE_DIR);
        // One line each, whole: a failure message would be cut short.
        for (const Violation& v : violations) qWarning("%s", describe(v).c_str());
        QVERIFY2(violations.empty(), qPrintable(QString::number(violations.size()) + QStringLiteral(" violations")));
    }

    void everyRuleBitesOnABrokenTree() {
        TreeLimits limits;
        limits.maxBackendHeaderLines = 12;
        const std::vector<Violation> found =
            checkTree(std::string(TOPODECK_TEST_DATA_DIR) + "/structure/broken", TOPODECK_QT_INCLUDE_DIR, limits);
        const std::string core = "backend/core includes only core and third-party non-Qt headers (not placement)";
        const std::string net = "backend/net includes only core, net and non-Qt headers";
        const std::string session = "backend/session includes no models, views or app, and of Qt only QtCore";
        const std::string models = "models include no views, no net, no app and no widgets";
        const std::string views = "views include no net and no app";
        const std::string quoted =
            "a quoted include names a project header: \"core/...\", \"net/...\", ... or one beside the file";
        const std::vector<Violation> expected = {
            {"backend/core/model.h", 3, "#include \"net/http_client.h\"", core},
            {"backend/core/model.h", 4, "#include \"core/placement/engine.h\"", core},
            {"backend/core/model.h", 5, "#include <QString>", core},
            {"backend/core/model.h", 0, "13 lines",
             "a header in backend/ stays within 12 lines: split it by concern, move what need not be inline to a "
             ".cpp"},
            {"backend/core/relative.cpp", 4, "#include \"missing.h\"", quoted},
            {"backend/net/client.h", 3, "#include \"session/cluster_session.h\"", net},
            {"backend/session/worker.h", 3, "#include \"models/tree.h\"", session},
            {"backend/session/worker.h", 4, "#include <QWidget>", session},
            {"models/tree.h", 3, "#include \"views/map.h\"", models},
            {"models/tree.h", 4, "#include \"net/client.h\"", models},
            {"models/tree.h", 5, "#include <QLabel>", models},
            {"models/tree.h", 0, "",
             "every source file is listed in models/CMakeLists.txt (a new file is a visible change of the build)"},
            {"views/map.h", 3, "#include \"app/gui/main_window.h\"", "nothing includes app/"},
            {"views/map.h", 4, "#include \"net/client.h\"", views},
            {"views/unlisted.h", 0, "",
             "every source file is listed in views/CMakeLists.txt (a new file is a visible change of the build)"},
            {"models/CMakeLists.txt", 2, "file(GLOB ...)", "source lists are written out, not globbed"},
        };
        QCOMPARE(listed(found), listed(expected));
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "test_layering.moc"
