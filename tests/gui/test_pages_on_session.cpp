// Each page built on a ClusterSession alone, without a MainWindow: the page asks the session, the
// session's request thread runs the use-case, and what the page shows is what the use-case gives
// when called directly on the same demo (so a front-end that calls the use-case itself, as
// topodeckctl does, gives the same answer).
#include "core/placement/reports/gangs_report.h"
#include "core/placement/reports/plan_query.h"
#include "models/gangs_model.h"
#include "session/cluster_session.h"
#include "support/demo_loader.h"
#include "usecases/change_preview.h"
#include "usecases/dry_run.h"
#include "views/pages/changes_page.h"
#include "views/pages/gangs_page.h"
#include "views/pages/planner_panel.h"

#include "page_on_session.h"
#include "support/test_program.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace topodeck;

namespace {

constexpr int kTimeoutMs = 60000; // sanitizer builds make the demos slowly

// A session showing the demo, and the same demo loaded directly.
struct OpenDemo {
    std::unique_ptr<ClusterSession> session;
    testing::LoadedDemo direct;

    explicit OpenDemo(const char* name)
        : session(testing::demoSession(QString::fromLatin1(name))), direct(testing::loadDemo(name)) {
        if (!session) qFatal("demo %s: no snapshot", name);
    }
};

} // namespace

class TestPagesOnSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void gangsPageListsTheReport() {
        OpenDemo demo("gb200");
        GangsPage page(demo.session.get());
        page.show();
        page.refresh();
        const GangsReport direct = buildGangsReport(demo.direct.state, demo.direct.index);
        QVERIFY(!direct.gangs.empty());
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), int(direct.gangs.size()), kTimeoutMs);
        QVERIFY(page.selectGang(QString::fromStdString(direct.gangs.front().qualifiedName())));
    }

    void plannerAnswersAsTheUseCase() {
        OpenDemo demo("gb200");
        PlannerPanel planner(demo.session.get());
        QSignalSpy shown(&planner, &PlannerPanel::answerShown);
        const char* flags = "--pods 16 --request nvidia.com/gpu=4 --required rack --compare";
        planner.setFlags(QString::fromLatin1(flags));
        planner.run();
        QVERIFY(shown.wait(kTimeoutMs));
        QVERIFY(planner.answer());
        QVERIFY2(planner.answer()->error.empty(), planner.answer()->error.c_str());

        auto query = parsePlanQuery(flags);
        QVERIFY(query.ok());
        followSourceSlurmVersion(query->options, {}, {}); // as the session does
        const PlanAnswer direct =
            dryRun(demo.direct.state,
                   preparePlanBase(demo.direct.state, demo.direct.index.spec(), demo.direct.index.gpuResources()),
                   *query);
        QCOMPARE(planner.answer()->json, direct.json);
        QCOMPARE(planner.answer()->nodePods, direct.nodePods);
    }

    void changesPagePreviewsAsTheUseCase() {
        OpenDemo demo("gb200");
        ChangesPage page(demo.session.get());
        QSignalSpy previewed(&page, &ChangesPage::previewShown);
        page.targetEdit()->setText(QStringLiteral("--domain su-1/rack-1-03"));
        page.labelsEdit()->setText(QStringLiteral("fabric.topograph.run/tier-0=rack-1-02"));
        QVERIFY(page.addOperation());
        QVERIFY(previewed.wait(kTimeoutMs));
        QVERIFY(page.preview());
        QVERIFY2(page.preview()->error.empty(), page.preview()->error.c_str());

        ChangePreviewRequest request;
        request.plan = page.preview()->plan;
        request.resolve = false;
        const ChangePreview direct = previewChange(demo.direct.state, demo.direct.index, request, "demo gb200");
        QCOMPARE(page.preview()->text, direct.text);
        QCOMPARE(page.preview()->nodes, direct.nodes);
        QVERIFY(!direct.nodes.empty());
        // A demo takes no apply, and the page is told why.
        QVERIFY(!page.preview()->cannotApply.empty());
        QVERIFY(page.preview()->target.empty());
    }
};

TOPODECK_TEST_MAIN(TestPagesOnSession)
#include "test_pages_on_session.moc"
