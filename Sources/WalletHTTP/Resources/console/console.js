// Passwright console: shows dates and numbers in the browser's own locale and time zone. Pages work
// without it; it only reformats <time datetime> and <data value> that the server wrote in ISO form.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const dates = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
  for (const element of document.querySelectorAll("time[datetime]")) {
    const when = new Date(element.getAttribute("datetime"));
    if (!Number.isNaN(when.getTime())) {
      element.title = element.getAttribute("datetime");
      element.textContent = dates.format(when);
    }
  }
  const numbers = new Intl.NumberFormat();
  for (const element of document.querySelectorAll("data[value]")) {
    const value = Number(element.getAttribute("value"));
    if (Number.isFinite(value)) element.textContent = numbers.format(value);
  }
});
