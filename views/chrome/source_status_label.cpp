#include "views/chrome/source_status_label.h"

#include <QLocale>

namespace topodeck {

namespace {

QString colorOf(SourceHealth health) {
    switch (health) {
    case SourceHealth::Connecting:
        return QStringLiteral("#6b7280");
    case SourceHealth::Live:
        return QStringLiteral("#1b7f3b");
    case SourceHealth::Reconnecting:
        return QStringLiteral("#b36b00");
    case SourceHealth::Stale:
        return QStringLiteral("#c2410c");
    case SourceHealth::Error:
        break;
    }
    return QStringLiteral("#c0392b");
}

QString resourceStateText(const ResourceHealth& resource) {
    using State = ResourceHealth::State;
    switch (resource.state) {
    case State::Waiting:
        return SourceStatusLabel::tr("waiting");
    case State::Listing:
        return SourceStatusLabel::tr("listing");
    case State::Synced:
        return SourceStatusLabel::tr("synced");
    case State::Reconnecting:
        return SourceStatusLabel::tr("reconnecting");
    case State::NotInstalled:
        return SourceStatusLabel::tr("not installed");
    case State::Forbidden:
        return SourceStatusLabel::tr("no permission");
    case State::Unauthorized:
        return SourceStatusLabel::tr("not authorized");
    case State::Unreachable:
        return SourceStatusLabel::tr("unreachable");
    case State::Failing:
        return SourceStatusLabel::tr("failing");
    }
    return {};
}

} // namespace

SourceStatusLabel::SourceStatusLabel(QWidget* parent) : QLabel(parent) {
    setTextFormat(Qt::RichText);
    setAccessibleName(tr("Source status"));
    // Long reasons give way to the status bar's totals; the tooltip has the whole text.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setMinimumWidth(240);
}

QString SourceStatusLabel::stateText(const SourceStatus& status) {
    switch (status.health) {
    case SourceHealth::Connecting:
        return tr("Loading");
    case SourceHealth::Live:
        return tr("Live");
    case SourceHealth::Reconnecting:
        return tr("Reconnecting");
    case SourceHealth::Stale:
        return status.since.isValid()
                   ? tr("Stale since %1").arg(QLocale().toString(status.since.toLocalTime().time(), QLocale::LongFormat))
                   : tr("Stale");
    case SourceHealth::Error:
        break;
    }
    return tr("Error");
}

void SourceStatusLabel::setStatus(const SourceStatus& status) {
    m_status = status;
    QString text = QStringLiteral("<b style='color:%1'>● %2</b>&nbsp;&nbsp;%3")
                       .arg(colorOf(status.health), stateText(status).toHtmlEscaped(), status.sourceName.toHtmlEscaped());
    if (!status.detail.isEmpty()) text += QStringLiteral(" — ") % status.detail.toHtmlEscaped();
    setText(text);

    QString tip = status.detail.toHtmlEscaped();
    if (!status.resources.empty()) {
        tip += QStringLiteral("<table>");
        for (const ResourceHealth& resource : status.resources) {
            tip += QStringLiteral("<tr><td>%1</td><td>&nbsp;%2</td><td>&nbsp;%3</td><td>&nbsp;%4</td></tr>")
                       .arg(QString::fromStdString(resource.title).toHtmlEscaped(), resourceStateText(resource),
                            resource.state == ResourceHealth::State::NotInstalled ? QString()
                                                                                : QLocale().toString(qint64(resource.objects)),
                            QString::fromStdString(resource.message).toHtmlEscaped());
        }
        tip += QStringLiteral("</table>");
    }
    setToolTip(tip);
}

} // namespace topodeck
