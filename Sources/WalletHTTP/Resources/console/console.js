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

  // A bulk upload shows how much of the file has gone up, then opens the job's page.
  const upload = document.getElementById("bulk-upload");
  if (upload) {
    upload.addEventListener("submit", (event) => {
      event.preventDefault();
      const progress = document.getElementById("bulk-upload-progress");
      const button = upload.querySelector("button[type=submit]");
      const request = new XMLHttpRequest();
      progress.hidden = false;
      button.disabled = true;
      request.upload.addEventListener("progress", (step) => {
        if (step.lengthComputable) progress.value = Math.round((step.loaded / step.total) * 100);
      });
      request.addEventListener("load", () => {
        if (request.status >= 200 && request.status < 300 && request.responseURL) {
          window.location.assign(request.responseURL);
          return;
        }
        // The server's own page says what was wrong: show its message here.
        const page = new DOMParser().parseFromString(request.responseText, "text/html");
        const message = page.querySelector(".error");
        let alert = document.getElementById("bulk-upload-error");
        if (!alert) {
          alert = document.createElement("p");
          alert.id = "bulk-upload-error";
          alert.className = "error";
          alert.setAttribute("role", "alert");
          upload.prepend(alert);
        }
        alert.textContent = message ? message.textContent : `The upload failed (${request.status}).`;
        progress.hidden = true;
        button.disabled = false;
      });
      request.addEventListener("error", () => { upload.submit(); });
      request.open("POST", upload.action);
      request.send(new FormData(upload));
    });
  }
});
