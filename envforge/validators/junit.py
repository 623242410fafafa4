"""Check results as JUnit XML, the report format CI systems read."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from envforge.validators.results import CheckReport


def render_junit(report: CheckReport) -> bytes:
    """One test suite named `envforge check <env id>` with one test case per check."""
    env_id, results = report.env_id, report.results
    suite = ET.Element(
        "testsuite",
        name=f"envforge check {env_id}",
        tests=str(len(results)),
        failures=str(sum(result.status == "failed" for result in results)),
        errors="0",
        skipped=str(sum(result.status == "skipped" for result in results)),
        time=f"{sum(result.seconds for result in results):.3f}",
    )
    for result in results:
        case = ET.SubElement(
            suite, "testcase", classname=f"envforge.{result.family}", name=result.name, time=f"{result.seconds:.3f}"
        )
        if result.status == "failed":
            failure = ET.SubElement(case, "failure", message=result.headline())
            failure.text = "\n".join(result.details) or result.message
        elif result.status == "skipped":
            ET.SubElement(case, "skipped", message=result.message)
        else:
            ET.SubElement(case, "system-out").text = result.message
    root = ET.Element("testsuites", name="envforge check")
    root.append(suite)
    ET.indent(root)
    document: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return document
