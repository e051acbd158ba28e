// The layering of DESIGN: app -> views -> models -> session -> net -> core, placement on core,
// use-cases on placement; inside core and placement, each folder by concern reads only those below it;
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
        const std::string root = "core's own top (result.h) includes nothing else of the project; a new file goes "
                                 "into a folder by concern";
        const std::string text = "core/text includes only core/text: it is below the model";
        const std::string values = "core/values includes only core/text and core/values";
        const std::string cel = "core/cel includes only core/text, core/values and core/cel";
        const std::string model = "core/model includes only core/text, core/values, core/cel and core/model";
        const std::string live = "core/live includes only core/text and core/live";
        const std::string formats =
            "core/formats and core/slurm include only core/text, core/model and each other: readers know no index";
        const std::string topology = "core/topology includes no changes, exports, demo or live";
        const std::string changes = "core/changes and core/exports include no demo and no placement";
        const std::string demo = "core/demo includes only core/text and core/model";
        const std::string requests = "placement/requests include only core and requests: no engine";
        const std::string engines =
            "placement/engines include only core, requests and engines: no reports, no what-if steps";
        const std::string placement = "placement includes only core, placement and non-Qt headers";
        const std::string usecases =
            "backend/usecases include only core, placement and usecases: no Qt, no network, no session";
        const std::string net = "backend/net includes only core, net and non-Qt headers";
        const std::string session = "backend/session includes no models, views or app, and of Qt only QtCore";
        const std::string models = "models include no views, no net, no app and no widgets";
        const std::string views = "views include no net and no app";
        const std::string quoted =
            "a quoted include names a project header: \"core/...\", \"net/...\", ... or one beside the file";
        const std::vector<Violation> expected = {
            {"backend/core/cel/eval.h", 3, "#include \"core/model/node.h\"", cel},
            {"backend/core/changes/plan.h", 4, "#include \"core/demo/demo.h\"", changes},
            {"backend/core/demo/demo.h", 3, "#include \"core/topology/index.h\"", demo},
            {"backend/core/formats/reader.h", 4, "#include \"core/topology/index.h\"", formats},
            {"backend/core/live/status.h", 3, "#include \"core/model/node.h\"", live},
            {"backend/core/model/model.h", 3, "#include \"net/http_client.h\"", model},
            {"backend/core/model/model.h", 4, "#include \"core/placement/engines/engine.h\"", model},
            {"backend/core/model/model.h", 5, "#include <QString>", model},
            {"backend/core/model/model.h", 7, "#include \"core/topology/index.h\"", model},
            {"backend/core/model/model.h", 0, "13 lines",
             "a header in backend/ stays within 12 lines: split it by concern, move what need not be inline to a "
             ".cpp"},
            {"backend/core/model/relative.cpp", 4, "#include \"missing.h\"", quoted},
            {"backend/core/placement/engines/engine.h", 4, "#include \"core/placement/reports/report.h\"", engines},
            {"backend/core/placement/reports/report.h", 4, "#include \"usecases/plan.h\"", placement},
            {"backend/core/placement/requests/request.h", 3, "#include \"core/placement/engines/engine.h\"", requests},
            {"backend/core/result.h", 3, "#include \"core/text/format.h\"", root},
            {"backend/core/text/format.h", 3, "#include \"core/model/node.h\"", text},
            {"backend/core/topology/index.h", 4, "#include \"core/changes/plan.h\"", topology},
            {"backend/core/values/quantity.h", 3, "#include \"core/model/node.h\"", values},
            {"backend/net/client.h", 3, "#include \"session/cluster_session.h\"", net},
            {"backend/session/worker.h", 3, "#include \"models/tree.h\"", session},
            {"backend/session/worker.h", 4, "#include <QWidget>", session},
            {"backend/usecases/plan.h", 4, "#include \"session/cluster_session.h\"", usecases},
            {"backend/usecases/plan.h", 5, "#include <QString>", usecases},
            {"models/tree.h", 3, "#include \"views/map.h\"", models},
            {"models/tree.h", 4, "#include \"net/client.h\"", models},
            {"models/tree.h", 5, "#include <QLabel>", models},
            {"models/tree.h", 0, "",
             "every source file is listed in models/CMakeLists.txt (a new file is a visible change of the build)"},
            {"views/map.h", 3, "#include \"app/gui/main_window.h\"", "nothing includes app/"},
            {"views/map.h", 4, "#include \"net/client.h\"", views},
            {"views/unlisted.h", 0, "",
             "every source file is listed in views/CMakeLists.txt (a new file is a visible change of the build)"},
            {"tests/unit/test_second.cpp", 6, "Fixture",
             "one class name in one namespace is defined once: tests/unit/test_first.cpp defines it too, and a "
             "program linking both breaks the one-definition rule"},
            {"views/map.h", 9, "topodeck::Node",
             "one class name in one namespace is defined once: models/tree.h defines it too, and a program linking "
             "both breaks the one-definition rule"},
            {"models/CMakeLists.txt", 2, "file(GLOB ...)", "source lists are written out, not globbed"},
        };
        QCOMPARE(listed(found), listed(expected));
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "test_layering.moc"
